import Application
import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file a command writes whole or not at all: into a new file beside `path`, moved over it only
/// once complete, so a refused, invalid or failed command leaves what was there (found by an outside
/// test: a refused `audit export -o` emptied the file first). Only a regular file is ever replaced,
/// never a folder or a device (`-o /dev/full` had become a file).
final class OutputFile {
    let path: String
    private let partial: String
    let handle: FileHandle
    private var done = false

    /// Opens the new file beside `path`, refusing (as `option`'s field error) a path that names
    /// something other than a file, or where no file can be made; and one of `library`'s own files
    /// (found by an outside test: `audit export -o library.sqlite` replaced the library).
    init(_ path: String, option: String, library: Library) throws {
        try library.backUp.refuseOwnFile(path)
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { throw InvalidInput([FieldError(option, .fileUnusable(path))]) }
        self.path = path
        partial = path + ".partial-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw InvalidInput([FieldError(option, .fileUnusable(path))])
        }
        self.handle = handle
    }

    /// Puts the complete file in place of whatever `path` held.
    func commit() throws {
        try handle.synchronize()
        try handle.close()
        guard rename(partial, path) == 0 else {
            unlink(partial)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        done = true
    }

    deinit {
        guard !done else { return }
        try? handle.close()
        unlink(partial)
    }
}
