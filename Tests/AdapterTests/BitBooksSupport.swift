import Application
import BitBooks
import Composition
import Domain
import Foundation
import InMemory
import Logging
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A BitBooks server on loopback over the library the composition root opens on a temporary
/// SQLite file, with a manual clock; stopped (cancelled) when the body returns.
struct BitBooksHarness: Sendable {
    let library: Library
    let port: Int
    let clock: ManualClock

    /// A new connection.
    func connect() throws -> BitBooksClient { try BitBooksClient(port: port) }

    /// A connection logged in as `username` (a member signed up by `member`).
    func loggedIn(_ username: String, password: String = BitBooksHarness.password) async throws -> BitBooksClient {
        let client = try connect()
        #expect(try await client.ask("LOGIN \(username) \(password)") == "Successfully logged")
        return client
    }

    static let password = "Member-Pass1"

    /// Signs up a member with a username, as a librarian would register one.
    @discardableResult
    func member(_ username: String, password: String = BitBooksHarness.password) async throws -> UserID {
        let form = SignupForm(
            email: "\(username)@example.org", password: password, displayName: username.capitalized, country: "FR", username: username)
        return try await library.accounts.signUp.execute(form, openSession: false, by: .cliOperator).account.id
    }

    /// Adds a book to the catalogue, as the operator.
    @discardableResult
    func book(_ title: String, isbn: String, copies: Int = 1, categories: [String] = ["Fiction"], cover: String? = nil) async throws
        -> CatalogueEntry
    {
        let draft = BookDraft(title: title, authors: ["Ann Author", "Bo Writer"], isbn: isbn, categories: categories, coverURL: cover)
        return try await library.catalogue.addBook.execute(draft, copies: copies, by: .cliOperator)
    }
}

/// Runs `body` against a BitBooks server started as `serve` starts it, on a fresh library.
/// A test's clients all connect from 127.0.0.1: the default allows as many from it as in all.
func withBitBooks<T: Sendable>(
    limits: BitBooksLimits = BitBooksLimits(idleTimeout: .seconds(60), maxConnectionsPerAddress: 256),
    attemptsPerMinute: Int = 100_000, logger: Logger = Logger(label: "bitbooks-test"),
    _ body: @escaping @Sendable (BitBooksHarness) async throws -> T
) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-bitbooks-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = ShelfmarkConfiguration(databasePath: folder.appendingPathComponent("library.sqlite").path)
    configuration.durability = .off
    configuration.bcryptCost = 4
    // Each test's clients share one address: a test's logins are not what the limit is for,
    // unless it says so.
    configuration.authAttemptsPerMinute = attemptsPerMinute
    let clock = ManualClock()
    let (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: RandomIDsForTests())
    defer { try? database.close() }
    let (ports, listening) = AsyncStream.makeStream(of: Int.self)
    let server = BitBooksServer(library: library, host: "127.0.0.1", port: 0, limits: limits, logger: logger) {
        listening.yield($0)
    }
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            try await server.run()
            return nil
        }
        var found = ports.makeAsyncIterator()
        let port = try #require(await found.next())
        let result = try await body(BitBooksHarness(library: library, port: port, clock: clock))
        group.cancelAll()
        return result
    }
}

/// A BitBooks client: one command per write, and answers read as the original clients read them,
/// bytes exactly as they arrive (the server ends them with nothing: no newline to trim). Its reads
/// wait on a thread of their own, off the cooperative pool the server in this process needs.
final class BitBooksClient: @unchecked Sendable {  // one test uses each client at a time
    let connection: RawConnection

    init(port: Int) throws { connection = try RawConnection(port: port) }

    /// Sends `command` and a newline in one write; returns the one answer that comes back.
    func ask(_ command: String) async throws -> String {
        try send(command + "\n")
        let answer = await answer()
        try #require(!answer.isEmpty, "no answer to \(command.prefix(40))")
        return answer
    }

    /// Ends the sending side (shutdown(SHUT_WR)), as `nc -N` does at the end of its input; answers still come back.
    func finishSending() { shutdown(connection.fd, Int32(SHUT_WR)) }

    /// Sends `text` as is, in one write.
    func send(_ text: String) throws { try connection.send(text) }

    /// Sends `bytes` as they are, in one write.
    func send(bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBufferPointer { Glibc.send(connection.fd, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// The next answer: what arrives once the first bytes came, until the connection stays quiet
    /// for `quietMilliseconds` (answers carry no end marker; each is one write, so it arrives at once), or closes.
    /// Empty when nothing comes within `seconds` (a deadline for a slow machine, never a measure).
    func answer(quietMilliseconds: Int32 = 200, seconds: Double = 30) async -> String {
        let bytes = await offPool { self.readAnswer(quietMilliseconds: quietMilliseconds, seconds: seconds) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Exactly as many bytes as `expected` holds together, in order, with no separator between
    /// them (fewer when the connection closes or `seconds` pass): what pipelined commands get back.
    /// No byte past them is read, so anything more the server sent shows in the next read.
    func answers(_ expected: [String], seconds: Double = 30) async -> String {
        let count = expected.reduce(0) { $0 + $1.utf8.count }
        return String(decoding: await bytes(count, seconds: seconds), as: UTF8.self)
    }

    /// The next `count` bytes the server sends, no more (fewer when it closes or `seconds` pass).
    func bytes(_ count: Int, seconds: Double = 30) async -> [UInt8] {
        await offPool { self.readBytes(count, seconds: seconds) }
    }

    /// True when the server closes the connection within `seconds`.
    func closed(within seconds: Double = 30) async -> Bool { await connection.waitForClose(seconds: seconds) }

    private func readAnswer(quietMilliseconds: Int32, seconds: Double) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !received.isEmpty || ContinuousClock.now < deadline {
            var poller = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, received.isEmpty ? 50 : quietMilliseconds) > 0 else {
                if received.isEmpty { continue }
                return received  // quiet: the answer is whole
            }
            let count = recv(connection.fd, &buffer, buffer.count, 0)
            if count <= 0 { return received }
            received += buffer[0..<count]
        }
        return received
    }

    private func readBytes(_ count: Int, seconds: Double) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while received.count < count, ContinuousClock.now < deadline {
            var poller = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let got = recv(connection.fd, &buffer, min(buffer.count, count - received.count), 0)
            if got <= 0 { break }
            received += buffer[0..<got]
        }
        return received
    }
}

/// A JSON array answer as objects; the answer is the array and nothing more (no line ending).
func objects(_ answer: String) throws -> [[String: Any]] {
    #expect(answer.first == "[" && answer.last == "]", "not bare JSON: \(answer.suffix(40))")
    return try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]], "not a JSON array: \(answer)")
}

/// A JSON object answer; the answer is the object and nothing more (no line ending).
func object(_ answer: String) throws -> [String: Any] {
    #expect(answer.first == "{" && answer.last == "}", "not bare JSON: \(answer.suffix(40))")
    return try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any], "not a JSON object: \(answer)")
}
