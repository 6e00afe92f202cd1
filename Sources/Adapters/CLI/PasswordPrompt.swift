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

/// How every command reads a password, in one place: on a terminal, a prompt on standard error
/// and the answer typed without echo; otherwise one line of standard input per password (scripts
/// and tests). A new password is typed twice on a terminal, and a mismatch changes nothing.
/// Never from the command line, where other users and shell history would see it.
enum PasswordPrompt {
    /// Whether standard input is a terminal a person types at.
    static var onTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// A password that exists already: a login's, or the current one of a change.
    static func existing(_ prompt: String = t("cli.prompt.password"), field: String = "password") throws -> String {
        try line(prompt, field: field)
    }

    /// A new password (signup, `user add`, a change, a reset): on a terminal typed twice and
    /// refused, as a field error, when the two differ.
    static func new(field: String = "password") throws -> String {
        let password = try line(t("cli.prompt.newPassword"), field: field)
        guard onTerminal else { return password }
        guard try line(t("cli.prompt.again"), field: field) == password else { throw InvalidInput(field, .passwordsDiffer) }
        return password
    }

    /// One line of standard input; on a terminal after `prompt`, with echo off while it is typed.
    /// Bytes that are not UTF-8 are refused, not repaired: `readLine` would turn each into U+FFFD,
    /// so that different passwords became one (found by an outside test).
    private static func line(_ prompt: String, field: String) throws -> String {
        let echo = onTerminal ? EchoOff(prompt: prompt) : nil
        defer { echo?.restore() }
        guard let bytes = lineOfBytes() else { throw InvalidInput(field, .required) }
        guard let line = String(validating: bytes, as: UTF8.self) else { throw InvalidInput(field, .notUTF8) }
        return line
    }

    /// The next line of standard input as bytes, without its `\n` or `\r\n`; nil at the end of the
    /// input. At most `kept` bytes are kept of a longer line (a password is at most 72: a longer one
    /// is refused as such), so a line without end cannot fill the memory; and reading stops after
    /// `kept` more, so one without end (`< /dev/zero`) cannot keep the command waiting either
    /// (found by an outside walk).
    private static func lineOfBytes(kept: Int = 4_096) -> [UInt8]? {
        var bytes: [UInt8] = []
        var read = 0
        while read <= 2 * kept {
            let next = getchar()
            if next == EOF { return read == 0 ? nil : bytes }
            read += 1
            if next == 0x0A { break }
            if bytes.count < kept { bytes.append(UInt8(truncatingIfNeeded: next)) }
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return bytes
    }
}

/// A terminal's echo turned off for one answer, and back on after it. The settings change at
/// once (`TCSANOW`), so lines typed ahead are kept, not flushed.
private struct EchoOff {
    private var saved = termios()
    private let changed: Bool

    init(prompt: String) {
        FileHandle.standardError.write(Data(prompt.utf8))
        changed = tcgetattr(STDIN_FILENO, &saved) == 0
        guard changed else { return }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
    }

    func restore() {
        guard changed else { return }
        var saved = self.saved
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
