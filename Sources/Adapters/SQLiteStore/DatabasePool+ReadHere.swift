import GRDB

extension DatabasePool {
    /// Reads on the calling thread, in one read transaction: a free reader connection is taken and
    /// the block runs at once, where the async `read` hands the block to the reader's queue and back
    /// (two thread switches per read, and a request makes several). For short reads of the read
    /// models and of one stream; long scans (verify, export, replay) keep the async form.
    ///
    /// The transaction is begun and ended with statements compiled once per connection: GRDB's own
    /// `read` compiles `BEGIN` and `COMMIT` again at every read, a tenth of a small request's time.
    func readHere<T>(_ block: (Database) throws -> T) throws -> T {
        try unsafeRead { db in
            try db.cached(sql: "BEGIN DEFERRED TRANSACTION")
            let value: T
            do {
                value = try block(db)
            } catch {
                try? db.cached(sql: "ROLLBACK TRANSACTION")
                throw error
            }
            try db.cached(sql: "COMMIT TRANSACTION")
            return value
        }
    }
}
