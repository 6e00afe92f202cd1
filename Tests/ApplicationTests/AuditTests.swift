import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStore

@Suite("audit verify")
struct AuditTests {
    /// A log with books, accounts, loans, notices and bookmarks in it, built through the use cases.
    func library() async throws -> TestLibrary {
        let t = try TestLibrary()
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["F"]), copies: 2, by: .cliOperator)
        let form = SignupForm(email: "ada@example.org", password: "Member-Pass1", country: "FR")
        let token = try #require(try await t.library.accounts.signUp.execute(form, by: .anonymous).session?.token)
        let ada = try await t.library.accounts.authenticate.execute(token: token)
        let loan = try await t.library.circulation.borrow.execute([dune.id], by: ada)[0]
        _ = try await t.library.bookmarks.add(book: dune.id, by: ada)
        t.clock.advance(by: 20 * 24 * 3600)
        try await t.library.circulation.scan.execute(by: .system)
        _ = try await t.library.circulation.giveBack.execute(loan.id, by: ada)
        return t
    }

    func failing(_ checks: [AuditCheck]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: checks.filter { !$0.passed }.map { ($0.name, $0.detail) })
    }

    /// Runs SQL on the database file as an attacker with the sqlite3 shell would: triggers dropped first.
    func tamper(_ t: TestLibrary, _ sql: String) async throws {
        let raw = try DatabaseQueue(path: t.folder.databasePath)
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete;")
            try db.execute(sql: sql)
        }
        try raw.close()
    }

    @Test func aLogBuiltThroughTheUseCasesVerifies() async throws {
        let t = try await library()
        let checks = try await t.library.verifyLog.execute(by: .cliOperator)
        #expect(failing(checks).isEmpty, "\(checks)")
        #expect(
            checks.map(\.name) == [
                "database file", "chain key", "hash chain", "contiguity", "append-only triggers", "replay", "personal data", "anchors",
            ])
        let member = Principal.user(UserID(UUID()), .member, SessionID(UUID()))
        await #expect(throws: Forbidden.self) { try await t.library.verifyLog.execute(by: member) }
    }

    @Test func twoSpellingsOfOneNameAreTwoStreamsToVerifyAndExport() async throws {
        // Logs written before emails were normalised can hold both; Swift's String == would take
        // them for one stream and report a gap that is not there.
        let t = try TestLibrary()
        for (n, name) in ["email-zo\u{EB}@example.org", "email-zoe\u{308}@example.org"].enumerated() {
            try await t.database.eventStore.append([StreamAppend(StreamName(name), expected: .noStream, events: [pending(n + 1)])])
        }
        let checks = try await t.library.verifyLog.execute(by: .cliOperator)
        #expect(failing(checks).isEmpty, "\(checks)")
        var lines: [String] = []
        _ = try await t.library.exportLog.execute(by: .cliOperator) { lines.append($0) }
        #expect(failing(t.library.exportLog.verify(lines: lines.flatMap { $0.split(separator: "\n").map(String.init) })).isEmpty)
    }

    @Test func editingAnEventBreaksTheChainAtItsPosition() async throws {
        let t = try await library()
        try await tamper(t, "UPDATE events SET payload = replace(payload, 'Dune', 'Dune II') WHERE position = 1")
        let failed = failing(try await t.library.verifyLog.execute(by: .cliOperator))
        #expect(failed["hash chain"]?.contains("position 1") == true, "\(failed)")
        #expect(failed["append-only triggers"] != nil)
    }

    @Test func reorderingIsCaught() async throws {
        let t = try await library()
        // Swap two events of different streams, hashes and all: every row stays self-consistent but the chain does not.
        try await tamper(
            t,
            "UPDATE events SET position = -2 WHERE position = 2; UPDATE events SET position = 2 WHERE position = 3; UPDATE events SET position = 3 WHERE position = -2"
        )
        let failed = failing(try await t.library.verifyLog.execute(by: .cliOperator))
        #expect(failed["hash chain"]?.contains("position 2") == true, "\(failed)")
    }

    @Test func deletingTheLastEventIsCaught() async throws {
        let t = try await library()
        try await tamper(t, "DELETE FROM events WHERE position = (SELECT MAX(position) FROM events)")
        let failed = failing(try await t.library.verifyLog.execute(by: .cliOperator))
        #expect(failed["contiguity"]?.contains("events were removed") == true, "\(failed)")
    }

    /// A revoked Prolific key made live again, or a book's number moved, in the read models: the
    /// replay gives them back as the log has them, so verify names the row.
    @Test(arguments: [
        ("UPDATE app_keys SET revoked = 0", "app_keys"),
        ("UPDATE catalogue_numbers SET book_id = 'tampered' WHERE number = 1", "catalogue_numbers"),
    ])
    func aTamperedOldClientsReadModelIsCaughtByTheReplay(_ sql: String, _ table: String) async throws {
        let t = try await library()
        _ = try await t.library.accounts.signUp.execute(
            SignupForm(email: "lib@example.org", password: "Librarian-1!", country: "FR"), role: .librarian, by: .cliOperator)
        let key = try await t.library.appKeys.issue.execute(forEmail: "lib@example.org", by: .cliOperator)
        try await t.library.appKeys.revoke.execute(key: key.key, by: .cliOperator)
        #expect(failing(try await t.library.verifyLog.execute(by: .cliOperator)).isEmpty)
        let raw = try DatabaseQueue(path: t.folder.databasePath)
        try await raw.write { db in try db.execute(sql: sql) }
        try raw.close()
        let failed = failing(try await t.library.verifyLog.execute(by: .cliOperator))
        #expect(failed.keys.sorted() == ["replay"] && failed["replay"]?.contains(table) == true, "\(failed)")
    }

    /// Every table of the database is either a read model the replay compares or named here with
    /// why it is not one: a new projection's table cannot be forgotten by `audit verify`.
    @Test func everyReadModelTableIsComparedByTheReplay() async throws {
        let t = try TestLibrary()
        let notFromTheLog: Set<String> = [
            "events", "grdb_migrations", "sqlite_sequence", "projection_positions",  // the log and its bookkeeping
            "chain_key", "library_secrets", "personal_keys", "erased_members", "erased_streams",  // keys and erasure, outside the log
            "login_failures", "search_cache", "country_list",  // counted or fetched outside the log
            "request_receipts",  // safe retries: kept a day beside the events they were recorded with
        ]
        let tables = try await t.database.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'catalogue_search%'")
        }
        let compared = Set(LibraryDatabase.readModelTables.map(\.table))
        #expect(Set(tables).subtracting(notFromTheLog) == compared)
    }

    @Test func aCorruptedReadModelRowIsCaughtByTheReplay() async throws {
        let t = try await library()
        let raw = try DatabaseQueue(path: t.folder.databasePath)
        try await raw.write { db in try db.execute(sql: "UPDATE catalogue_books SET copies = 99") }
        try raw.close()
        let failed = failing(try await t.library.verifyLog.execute(by: .cliOperator))
        #expect(failed.keys.sorted() == ["replay"])
        #expect(failed["replay"]?.contains("catalogue_books") == true && failed["replay"]?.contains("copies=99") == true, "\(failed)")
    }
}
