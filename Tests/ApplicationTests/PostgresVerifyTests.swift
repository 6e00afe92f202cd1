import Application
import Domain
import Foundation
import LogChain
import PostgresNIO
import Testing

@testable import PostgresStore

/// `audit verify` on PostgreSQL: an intact log passes every check; each way of altering the log,
/// its triggers or a read model is named; verify changes nothing. Run when
/// `SHELFMARK_TEST_POSTGRES_URL` names a server.
@Suite("PostgreSQL audit verify", .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
struct PostgresVerifyTests {
    /// A keyed library holding a few books and members, one of them erased.
    static func library(keyFile: String) async throws -> PostgresLibrary {
        let library = try await PostgresTestServer.library(keyFile: keyFile)
        for n in 1...3 { try await library.eventStore.append([StreamAppend(.book(bookID(n)), expected: .noStream, events: [pending(n)])]) }
        let ada = EventStoreErasureContractTests.ada
        try await EventStoreErasureContractTests.append(library.eventStore, .user(ada), EventStoreErasureContractTests.registered())
        try await EventStoreErasureContractTests.append(library.eventStore, .user(ada), .user(.closed(UserClosed(user: ada))))
        return library
    }

    static func bookID(_ n: Int) -> BookID { BookID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))!) }

    static func failed(_ library: PostgresLibrary, anchors: AnchorSource = .none) async throws -> [AuditCheck] {
        try await library.verify(anchors: anchors) { _, _ in }.filter { !$0.passed }
    }

    @Test("an intact log passes every check, twice, and verify leaves the read models as they were")
    func intact() async throws {
        let folder = TemporaryFolder()
        let library = try await Self.library(keyFile: folder.url.appendingPathComponent("k").path)
        let checks = try await library.verify(anchors: .none) { _, _ in }
        #expect(checks.map(\.kind) == [.chainKey, .hashChain, .contiguity, .appendOnlyTriggers, .replay, .personalData])
        let allPassed = checks.allSatisfy(\.passed)
        #expect(allPassed, Comment(rawValue: String(describing: checks)))
        #expect(checks[5].finding == .personalData(sealed: 1, erasedMembers: 1, inClear: 0))
        #expect(try await Self.failed(library).isEmpty)
        let temporary = try await library.client.session(library.logger) { session in
            try await session.value("SELECT count(*) FROM pg_class WHERE relpersistence = 't'", as: Int64.self)
        }
        #expect(temporary == 0)
        await library.close()
    }

    @Test(
        "each alteration is named by the check it breaks",
        arguments: [
            ("ALTER TABLE events DISABLE TRIGGER events_no_update", AuditCheck.Kind.appendOnlyTriggers),
            (
                "CREATE OR REPLACE FUNCTION shelfmark_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
                .appendOnlyTriggers
            ),
            ("DROP TRIGGER events_no_truncate ON events", .appendOnlyTriggers),
            (
                "CREATE TRIGGER events_extra AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION shelfmark_events_append_only()",
                .appendOnlyTriggers
            ),
            ("ALTER TABLE events DISABLE TRIGGER USER; UPDATE events SET actor = 'mallory' WHERE position = 2", .hashChain),
            ("UPDATE catalogue_books SET title = 'Altered' WHERE id = '00000000-0000-0000-0000-000000000002'", .replay),
            ("DELETE FROM catalogue_books WHERE id = '00000000-0000-0000-0000-000000000003'", .replay),
        ])
    func alterations(change: String, broken: AuditCheck.Kind) async throws {
        let folder = TemporaryFolder()
        let library = try await Self.library(keyFile: folder.url.appendingPathComponent("k").path)
        for statement in change.contains("$$") ? [change] : change.components(separatedBy: "; ") {
            try await PostgresStoreTests.execute(library, statement)
        }
        let failed = try await Self.failed(library)
        #expect(failed.map(\.kind).contains(broken), Comment(rawValue: String(describing: failed)))
        await library.close()
    }

    @Test("anchors: a signed head verifies, and a log cut before it is caught")
    func anchors() async throws {
        let folder = TemporaryFolder()
        let anchorFile = folder.url.appendingPathComponent("anchors").path
        let library = try await Self.library(keyFile: folder.url.appendingPathComponent("k").path)
        let anchor = try await library.anchor(to: anchorFile, at: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(anchor.position == 5)
        let checks = try await library.verify(anchors: .file(anchorFile)) { _, _ in }
        #expect(checks.last?.kind == .anchors)
        let allPassed = checks.allSatisfy(\.passed)
        #expect(allPassed, Comment(rawValue: String(describing: checks)))
        try await PostgresStoreTests.execute(library, "ALTER TABLE events DISABLE TRIGGER USER")
        try await PostgresStoreTests.execute(library, "DELETE FROM events WHERE position = 5")
        let failed = try await Self.failed(library, anchors: .file(anchorFile))
        #expect(failed.map(\.kind).contains(.anchors), Comment(rawValue: String(describing: failed)))
        await library.close()
    }
}
