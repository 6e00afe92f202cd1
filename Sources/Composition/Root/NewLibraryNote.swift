import Application
import CLI
import Foundation

/// Notices that opening a library created its file, so the command line says so once: a mistyped
/// or unexpected path shows at once instead of answering "No books." from a library nobody meant.
enum NewLibraryNote {
    /// Runs `open`; when the database file at `path` was not there before and is now, `created` is
    /// told its full path.
    static func noting<T>(_ path: String, _ open: () throws -> T, created: (String) -> Void) rethrows -> T {
        let existed = FileManager.default.fileExists(atPath: path)
        let result = try open()
        if !existed, FileManager.default.fileExists(atPath: path) { created(URL(fileURLWithPath: path).standardizedFileURL.path) }
        return result
    }
}
