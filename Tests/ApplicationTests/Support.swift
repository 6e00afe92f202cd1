import Application
import Composition
import Domain
import Foundation
import InMemory
import SQLiteStore
import Security
import Testing

/// A fresh temporary folder, removed when the value is.
final class TemporaryFolder: @unchecked Sendable {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-tests-\(UUID())")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    var databasePath: String { url.appendingPathComponent("library.sqlite").path }
}

/// The cipher the stores under test seal and name with: the Security adapter's, as `Bootstrap` wires it.
let personalCipher = SwiftCryptoPersonalCipher()

extension LibraryDatabase {
    /// A library opened with the tests' cipher (the application's own: `Bootstrap` passes the same one).
    convenience init(path: String, durability: Durability = .full, keyFile: String? = nil, projecting: Bool = true) throws {
        try self.init(path: path, durability: durability, keyFile: keyFile, cipher: personalCipher, projecting: projecting)
    }
}

extension InMemoryEventStore {
    /// An in-memory store sealing with the tests' cipher.
    convenience init() { self.init(cipher: personalCipher) }
}

/// Builds one event store adapter for the contract suite.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () async throws -> any EventStore
    var testDescription: String { name }

    /// In memory, SQLite, and PostgreSQL when a server is given (`PostgresTestServer`).
    static let all: [StoreFactory] =
        [
            StoreFactory(name: "in-memory") { InMemoryEventStore() },
            StoreFactory(name: "SQLite") { try SQLiteUnderTest(durability: .off).store },
        ] + (PostgresTestServer.url == nil ? [] : [StoreFactory(name: "PostgreSQL") { try await PostgresTestServer.library().eventStore }])
}

/// A SQLite event store that keeps its temporary folder alive as long as it is used.
struct SQLiteUnderTest: EventStore {
    let folder = TemporaryFolder()
    let database: LibraryDatabase
    init(durability: Durability) throws { database = try LibraryDatabase(path: folder.databasePath, durability: durability) }
    var store: any EventStore { self }
    @discardableResult
    func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64 {
        try await database.eventStore.append(appends, receipt: receipt)
    }
    func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] {
        try await database.eventStore.read(stream, after: version)
    }
    func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] {
        try await database.eventStore.readAll(after: position, limit: limit)
    }
    var claimNames: ClaimNames { database.eventStore.claimNames }
}

func metadata(_ n: Int = 0) -> EventMetadata {
    EventMetadata(
        eventID: UUID(), recordedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(n)), actor: "test",
        correlationID: UUID(uuidString: "00000000-0000-0000-0000-00000000c0de")!)
}

/// A distinct, valid book event for stream `n`.
func bookAdded(_ n: Int) -> DomainEvent {
    let id = BookID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))!)
    return .book(.added(BookAdded(book: id, details: BookDetails(title: "Book \(n)", authors: ["Author \(n)"]), copies: 1)))
}

func pending(_ n: Int) -> PendingEvent { PendingEvent(bookAdded(n), metadata(n)) }

/// A library on a temporary SQLite file with a manual clock and predictable ids.
struct TestLibrary {
    let folder = TemporaryFolder()
    let clock = ManualClock()
    let library: Library
    let database: LibraryDatabase

    init() throws {
        var configuration = ShelfmarkConfiguration(databasePath: folder.databasePath)
        configuration.durability = .off
        configuration.bcryptCost = 4
        (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: SequentialIDs())
    }

    /// Signs up a member called `name` and returns the principal of their session.
    func member(_ email: String, _ name: String) async throws -> Principal {
        let form = SignupForm(email: email, password: "Analytical-1", displayName: name, country: "GB")
        let signedIn = try await library.accounts.signUp.execute(form, role: .member, by: .anonymous)
        return try await library.accounts.authenticate.execute(token: try #require(signedIn.session?.token))
    }
}

enum ShelfmarkConfigurationForTests {
    static func make(_ path: String) -> ShelfmarkConfiguration {
        var configuration = ShelfmarkConfiguration(databasePath: path)
        configuration.bcryptCost = 4
        return configuration
    }
}

enum BootstrapForTests {
    static func open(_ configuration: ShelfmarkConfiguration) throws -> (Library, LibraryDatabase) {
        try Bootstrap.openLibrary(configuration, clock: ManualClock(), ids: SequentialIDs())
    }
}
