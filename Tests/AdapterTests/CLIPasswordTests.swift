import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@Suite("CLI: passwords")
struct CLIPasswordTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    /// Ada signed up (and logged in) with `Member-Pass1`.
    func ada() async throws {
        let signup = try await run("signup", "--email", "ada@example.org", "--country", "GB", stdin: "Member-Pass1\n")
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(try await run("login", "--email", "ada@example.org", stdin: "Member-Pass1\n").status == 0)
    }

    @Test func aChangeReadsTheCurrentAndTheNewPasswordFromStandardInput() async throws {
        try await ada()
        let wrong = try await run("password", "change", stdin: "Member-Pass9\nMember-Pass2!\n")
        #expect(
            wrong.status == 1 && wrong.stderr == "Error: the current password you typed is not right, so your password was not changed\n")
        let weak = try await run("password", "change", stdin: "Member-Pass1\nweak\n")
        #expect(weak.status == 64 && weak.stderr.contains("the new password on standard input: must be at least 8 characters long"))
        let changed = try await run("password", "change", stdin: "Member-Pass1\nMember-Pass2!\n")
        #expect(changed.status == 0 && changed.stdout == "Password changed.\n", "\(changed.stderr)")
        #expect(try await run("whoami").stdout.contains("ada@example.org"), "the session that changed it stays")
        #expect(try await run("login", "--email", "ada@example.org", stdin: "Member-Pass2!\n").status == 0)
    }

    /// Found by an outside test: bytes that are not UTF-8 were read as U+FFFD, so `\xFF\xFEBad-Pass1`
    /// and `\x80\x81Bad-Pass1` were one password.
    @Test func aPasswordThatIsNotUTF8IsRefusedNotRepaired() async throws {
        let bytes = [0xFF, 0xFE] + Array("Bad-Pass1\n".utf8)
        let signup = try await shelfmark(
            ["signup", "--email", "eve@example.org", "--country", "GB"], database: db.path, stdinBytes: bytes)
        #expect(signup.status == 64 && signup.stderr.contains("must be UTF-8 text"), "\(signup.stderr)")
        try await ada()
        let login = try await shelfmark(
            ["login", "--email", "ada@example.org"], database: db.path, stdinBytes: [0x80] + Array("Member-Pass1\n".utf8))
        #expect(login.status == 64 && login.stderr.contains("must be UTF-8 text"), "\(login.stderr)")
    }

    /// Found by an outside walk: `signup < /dev/zero` never returned, reading a line that never ends.
    @Test func aLineWithoutEndIsRefusedNotWaitedFor() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SHELFMARK_DB"] = db.path
        environment["XDG_CONFIG_HOME"] = db.folder.appendingPathComponent("config").path
        let executable = try shelfmarkExecutable().path
        let signup = try await offPool { [environment] in
            try runToEnd(
                "/bin/sh", ["-c", #"exec "$0" signup --email eve@example.org --country GB < /dev/zero"#, executable],
                environment: environment, input: nil)
        }
        let said = String(decoding: signup.stderr, as: UTF8.self)
        #expect(signup.status == 64 && said.contains("the password on standard input: must be at most 72 bytes"), "\(said)")
    }

    @Test func aChangeNeedsALoginBeforeAnyPasswordIsRead() async throws {
        let refused = try await run("password", "change")
        #expect(refused.status == 1 && refused.stderr.contains("please log in first"), "\(refused.stderr)")
    }

    @Test func aCodeFromTheOperatorResetsOnce() async throws {
        try await ada()
        _ = try await run("logout")
        let issued = try await run("password", "reset-code", "ADA@example.org")
        #expect(issued.status == 0, "\(issued.stderr)")
        let code = try #require(issued.stdout.firstMatch(of: /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/).map { String($0.output) })
        #expect(issued.stdout.hasPrefix("Reset code for ada@example.org: \(code)\nIt works once, until "))
        let reset = try await run("password", "reset", "--email", "ada@example.org", "--code", code.lowercased(), stdin: "Fresh-Start-3\n")
        #expect(reset.status == 0 && reset.stdout.hasPrefix("Password changed for ada@example.org"), "\(reset.stderr)")
        let again = try await run("password", "reset", "--email", "ada@example.org", "--code", code, stdin: "Fresh-Start-4\n")
        #expect(again.status == 1 && again.stderr.contains("this reset code does not work for this email address"))
        #expect(try await run("login", "--email", "ada@example.org", stdin: "Fresh-Start-3\n").status == 0)
        let json = try await run("--json", "password", "reset-code", "ada@example.org")
        #expect(json.status == 1 && json.stderr.contains("urn:shelfmark:problem:forbidden"), "a member may not: \(json.stderr)")
    }

    @Test func everyNewPasswordIsTypedTwiceOnATerminalAndAMismatchChangesNothing() async throws {
        let mismatch = "Error: the password: was typed differently the second time; nothing was changed, so please type it again"
        let signup = try await onTerminal(
            ["signup", "--email", "ada@example.org", "--country", "GB"], typing: "Member-Pass1\nMember-Pass2\n")
        #expect(
            signup.status == 64 && signup.stderr.contains(mismatch) && signup.stderr.split(separator: "\n").count == 1, "\(signup.stderr)")
        #expect(signup.stderr.contains("New password: ") && signup.stderr.contains("Type the new password again: "))
        let added = try await onTerminal(["user", "add", "--email", "lib@example.org"], typing: "Librarian-Pass1\nLibrarian-Pass2\n")
        #expect(added.status == 64 && added.stderr.hasSuffix(mismatch + "\n"))
        #expect(try await run("user", "list").stdout.contains("No accounts."))

        let agreed = try await onTerminal(
            ["signup", "--email", "ada@example.org", "--country", "GB"], typing: "Member-Pass1\nMember-Pass1\n")
        #expect(agreed.status == 0, "\(agreed.stderr)")
        #expect(try await run("login", "--email", "ada@example.org", stdin: "Member-Pass1\n").status == 0)
        let change = try await onTerminal(["password", "change"], typing: "Member-Pass1\nMember-Pass2!\nMember-Pass3!\n")
        #expect(change.status == 64 && change.stderr.contains("the new password: was typed differently"))
        let changed = try await onTerminal(["password", "change"], typing: "Member-Pass1\nMember-Pass2!\nMember-Pass2!\n")
        #expect(changed.status == 0 && changed.stdout == "Password changed.\n", "\(changed.stderr)")
        #expect(changed.stderr.contains("Current password: "))

        _ = try await run("logout")
        let code = try #require(
            try await run("password", "reset-code", "ada@example.org").stdout.firstMatch(of: /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/)
                .map { String($0.output) })
        let reset = try await onTerminal(
            ["password", "reset", "--email", "ada@example.org", "--code", code], typing: "Fresh-Start-3\nFresh-Start\n")
        #expect(reset.status == 64 && reset.stderr.contains("the new password: was typed differently"))
        #expect(try await run("login", "--email", "ada@example.org", stdin: "Member-Pass2!\n").status == 0, "the mismatch changed nothing")
        for output in [signup, added, agreed, change, changed, reset] {
            for typed in ["Member-Pass1", "Member-Pass2", "Librarian-Pass1", "Fresh-Start"] {
                #expect(!output.stdout.contains(typed) && !output.stderr.contains(typed), "\(typed) shown: \(output)")
            }
        }
    }

    /// Runs `shelfmark` with a pseudo-terminal as standard input, `typing` already typed into it;
    /// standard output and error are pipes. The terminal is nobody's controlling one, so the
    /// prompts must read standard input itself (not /dev/tty). Waits on a thread of its own.
    func onTerminal(_ arguments: [String], typing: String) async throws -> CLIResult {
        try await offPool { try onTerminalBlocking(arguments, typing: typing) }
    }

    private func onTerminalBlocking(_ arguments: [String], typing: String) throws -> CLIResult {
        let pty = try #require(PseudoTerminal.functions)
        let master = pty.open(O_RDWR | O_NOCTTY)
        try #require(master >= 0 && pty.grant(master) == 0 && pty.unlock(master) == 0)
        defer { close(master) }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        let slave = open(String(cString: try #require(pty.name(master))), O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(slave >= 0)
        defer { close(slave) }
        _ = typing.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }

        var environment = ProcessInfo.processInfo.environment
        environment["SHELFMARK_DB"] = db.path
        environment["SHELFMARK_SYNCHRONOUS"] = "off"
        environment["SHELFMARK_BCRYPT_COST"] = "4"
        environment["XDG_CONFIG_HOME"] = URL(fileURLWithPath: db.path).deletingLastPathComponent().appendingPathComponent("config").path
        spawning.lock()
        let (out, err) = (try closeOnExecPipe(), try closeOnExecPipe())
        let spawned = Result {
            try ChildProcess.spawn(
                try shelfmarkExecutable().path, arguments, environment: environment, stdin: slave, stdout: out.write, stderr: err.write)
        }
        spawning.unlock()
        close(out.write)
        close(err.write)
        defer { [out.read, err.read].forEach { close($0) } }
        let child = try spawned.get()
        var outputs: [Int32: Data] = [out.read: Data(), err.read: Data()]
        var open: Set<Int32> = [out.read, err.read]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), 30_000)
            if ready == 0 {
                Issue.record("shelfmark \(arguments) still waits for input")
                kill(child.pid, SIGKILL)
                break
            }
            for entry in fds where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    outputs[entry.fd]!.append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    open.remove(entry.fd)
                }
            }
        }
        return CLIResult(
            status: child.wait(), stdout: String(decoding: outputs[out.read]!, as: UTF8.self),
            stderr: String(decoding: outputs[err.read]!, as: UTF8.self))
    }
}

/// libc's pseudo-terminal functions, looked up at run time: Swift's Glibc module leaves them out
/// (they sit behind `_XOPEN_SOURCE` in stdlib.h).
struct PseudoTerminal {
    let open: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let name: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    static let functions: PseudoTerminal? = {
        let libc = dlopen(nil, RTLD_NOW)
        func symbol<T>(_ name: String, as: T.Type) -> T? { dlsym(libc, name).map { unsafeBitCast($0, to: T.self) } }
        guard let open = symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
            let grant = symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self),
            let unlock = symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
            let name = symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        else { return nil }
        return PseudoTerminal(open: open, grant: grant, unlock: unlock, name: name)
    }()
}
