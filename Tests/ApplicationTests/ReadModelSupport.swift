import Application
import Foundation
import PostgresStore
import SQLiteStore
import Testing

/// One library on one store adapter, for the read-model ports' contract suites: events go in
/// through its event store (so its inline projections fold them), and each port is read back from
/// the same adapter. Each suite reads its port through an extension of its own, e.g.
/// `var catalogue: any Catalogue { sqlite?.catalogue ?? postgres!.catalogue }`.
struct LibraryUnderTest: Sendable {
    /// The SQLite library, when this is the SQLite adapter (its folder kept alive with it).
    let sqlite: LibraryDatabase?
    /// The PostgreSQL library, when this is the PostgreSQL adapter.
    let postgres: PostgresLibrary?
    private let folder: TemporaryFolder?

    init(sqlite: SQLiteUnderTest) {
        self.sqlite = sqlite.database
        folder = sqlite.folder
        postgres = nil
    }

    init(postgres: PostgresLibrary) {
        self.postgres = postgres
        sqlite = nil
        folder = nil
    }

    /// The library's event store.
    var store: any EventStore { sqlite?.eventStore ?? postgres!.eventStore }

    /// Appends events to one stream, each after the last, with the tests' metadata.
    func append(_ stream: StreamName, _ events: DomainEvent...) async throws {
        let version = Int64(try await store.read(stream).count)
        try await store.append([
            StreamAppend(
                stream, expected: version == 0 ? .noStream : .exactly(version), events: events.map { PendingEvent($0, metadata()) })
        ])
    }

    /// Empties the read models and folds the whole log into them again.
    func rebuild() async throws {
        if let sqlite { _ = try await sqlite.rebuild(progress: { _, _ in }) }
        if let postgres { _ = try await postgres.rebuild(progress: { _, _ in }) }
    }
}

/// Builds a library on one adapter, for the read-model contract suites.
struct LibraryFactory: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () async throws -> LibraryUnderTest
    var testDescription: String { name }

    /// SQLite, and PostgreSQL when a server is given (`PostgresTestServer`).
    static let all: [LibraryFactory] =
        [LibraryFactory(name: "SQLite") { LibraryUnderTest(sqlite: try SQLiteUnderTest(durability: .off)) }]
        + (PostgresTestServer.url == nil
            ? [] : [LibraryFactory(name: "PostgreSQL") { LibraryUnderTest(postgres: try await PostgresTestServer.library()) }])
}
