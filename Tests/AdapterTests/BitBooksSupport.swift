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
func withBitBooks<T: Sendable>(
    limits: BitBooksLimits = BitBooksLimits(idleTimeout: .seconds(60)), _ body: @escaping @Sendable (BitBooksHarness) async throws -> T
) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-bitbooks-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = ShelfmarkConfiguration(databasePath: folder.appendingPathComponent("library.sqlite").path)
    configuration.durability = .off
    configuration.bcryptCost = 4
    // Each test's clients share one address: a test's logins are not what the limit is for.
    configuration.authAttemptsPerMinute = 100_000
    let clock = ManualClock()
    let (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: RandomIDsForTests())
    defer { try? database.close() }
    let (ports, listening) = AsyncStream.makeStream(of: Int.self)
    let server = BitBooksServer(library: library, host: "127.0.0.1", port: 0, limits: limits, logger: Logger(label: "bitbooks-test")) {
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

/// A BitBooks client: one command per write, answers read a line at a time. Its reads wait on a
/// thread of their own, off the cooperative pool the server in this process needs.
final class BitBooksClient: @unchecked Sendable {  // one test uses each client at a time
    let connection: RawConnection
    private var pending: [UInt8] = []

    init(port: Int) throws { connection = try RawConnection(port: port) }

    /// Sends `command` and a newline in one write; returns the answer's line.
    func ask(_ command: String) async throws -> String {
        try send(command + "\n")
        return try #require(await lines(1).first, "no answer to \(command.prefix(40))")
    }

    /// Sends `text` as is, in one write.
    func send(_ text: String) throws { try connection.send(text) }

    /// Sends `bytes` as they are, in one write.
    func send(bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBufferPointer { Glibc.send(connection.fd, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// The next `count` lines the server sends (without their newlines); fewer when it closes
    /// the connection or `seconds` pass first (a deadline for a slow machine, never a measure).
    func lines(_ count: Int, seconds: Double = 30) async -> [String] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.readLines(count, seconds: seconds)) }
        }
    }

    /// True when the server closes the connection within `seconds`.
    func closed(within seconds: Double = 30) async -> Bool { await connection.waitForClose(seconds: seconds) }

    private func readLines(_ count: Int, seconds: Double) -> [String] {
        var lines: [String] = []
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while lines.count < count {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[..<end], as: UTF8.self))
                pending.removeSubrange(...end)
                continue
            }
            guard ContinuousClock.now < deadline else { break }
            var poller = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let received = recv(connection.fd, &buffer, buffer.count, 0)
            if received <= 0 { break }
            pending += buffer[0..<received]
        }
        return lines
    }
}

/// A JSON answer as objects.
func objects(_ answer: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]], "not a JSON array: \(answer)")
}
