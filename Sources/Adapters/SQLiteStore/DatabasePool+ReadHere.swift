import GRDB

extension DatabasePool {
    /// Reads on the calling thread: a free reader connection is taken and the block runs at once,
    /// where the async `read` hands the block to the reader's queue and back (two thread switches
    /// per read, and a request makes several). For short reads of the read models and of one
    /// stream; long scans (verify, export, replay) keep the async form.
    func readHere<T>(_ block: (Database) throws -> T) throws -> T {
        try read(block)
    }
}
