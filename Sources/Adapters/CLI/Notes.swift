import Foundation
import Synchronization

/// What the command line tells besides its answer, gathered while a command runs and said once
/// at its end: after the answer on standard error, or inside a failure's one line.
public enum CommandLineNotes {
    private static let created = Mutex<String?>(nil)

    /// This run created a new, empty library file at `path` (a mistyped path shows at once).
    public static func libraryCreated(at path: String) { created.withLock { $0 = path } }

    /// The note to tell, once: nil when there is none (or it was told).
    static func take() -> String? {
        created.withLock { path in
            defer { path = nil }
            return path.map { say(.libraryCreated(path: $0)) }
        }
    }

    /// Tells the note after a command that succeeded.
    static func tell() {
        if let note = take() { FileHandle.standardError.write(Data((note + "\n").utf8)) }
    }
}
