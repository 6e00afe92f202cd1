import Application
import Domain
import Foundation
import GRDB
import LogChain
import Testing

@testable import SQLiteStore

/// `Golden/log-v1.jsonl` was written by `shelfmark audit export` from a library driven through the
/// CLI so that every stored event type of its time appears. Old logs must replay forever: any change
/// to an event's shape keeps this test passing (add a `.v2` and an upcaster; never edit this file).
/// A new stored type comes with a new golden file beside it (`log-v2.jsonl`…), never an edit.
@Suite("Golden log")
struct GoldenLogTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    let lines = Self.lines(of: "log-v1.jsonl")

    static func lines(of file: String) -> [String] {
        try! String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func theGoldenFilesHoldEveryEventType() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".jsonl") }
        let types = Set(try files.flatMap(Self.lines).map { try JSONDecoder().decode(ExportedEvent.self, from: Data($0.utf8)).type })
        #expect(types == Set(EventCodec.allTypes), "a new stored type needs a new golden file beside the old ones")
    }

    @Test func itVerifiesOffline() throws {
        let verified = LibraryDatabase.verifyExport(lines: lines)
        #expect(verified.filter { !$0.passed }.isEmpty)
        var tampered = lines
        tampered[3] = tampered[3].replacingOccurrences(of: #""actor":"operator""#, with: #""actor":"mallory""#)
        #expect(LibraryDatabase.verifyExport(lines: tampered).first?.detail == "the chain breaks at position 4")
        // A second copy of a field after the one hashed: the decoder read the first, `jq` the last
        // (found by an outside walk: such a line verified)
        var doubled = lines
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any])
        let payload = try #require(fields["payload"] as? String)
        let forged = String(decoding: try JSONSerialization.data(withJSONObject: ["p": payload + " "]), as: UTF8.self).dropFirst(5)
            .dropLast()
        doubled[3] = String(lines[3].dropLast()) + #","payload":"# + forged + "}"
        #expect(try JSONSerialization.jsonObject(with: Data(doubled[3].utf8)) is [String: Any], "still JSON")
        #expect(LibraryDatabase.verifyExport(lines: doubled).first?.detail == "line 4 is not an exported event")
    }

    /// A new library whose log holds `lines` (a golden file's exported events) as stored, opened so
    /// its read models catch up from position 0.
    static func replay(_ lines: [String], into folder: TemporaryFolder) async throws -> LibraryDatabase {
        try LibraryDatabase(path: folder.databasePath, durability: .off).close()
        let raw = try DatabaseQueue(path: folder.databasePath)
        try await raw.write { db in
            for line in lines {
                let e = try JSONDecoder().decode(ExportedEvent.self, from: Data(line.utf8))
                try db.execute(
                    sql: """
                        INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor,
                                            correlation_id, causation_id, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        e.position, e.stream, e.version, e.type, e.payload, e.eventId, e.recordedAt, e.actor, e.correlationId,
                        e.causationId, e.hash,
                    ])
            }
        }
        try raw.close()

        return try LibraryDatabase(path: folder.databasePath, durability: .off)
    }

    @Test func itReplaysIntoTheExpectedReadModels() async throws {
        let folder = TemporaryFolder()
        let database = try await Self.replay(lines, into: folder)
        let books = try await database.catalogue.page(CatalogueQuery(), .first).items
        #expect(books.count == 1)
        let dune = try #require(books.first)
        #expect(dune.details.title == "Dune" && dune.details.publisher == "Chilton" && dune.details.isbn?.isbn13 == "9780441172719")
        #expect(dune.copies == 2 && dune.onLoan == 0 && dune.lastCheckout?.name == "ada")
        let accounts = try await database.accounts.list(.first).items
        #expect(accounts.map(\.email.value) == ["ada@example.org", "lib@example.org"])
        #expect(accounts.map(\.role) == [.librarian, .librarian])
        let ada = accounts[0].id
        let loans = try await database.loans.loans(LoanFilter(member: ada, includeReturned: true))
        #expect(loans.count == 1 && loans[0].renewals == 1 && loans[0].returnedAt != nil)
        let notices = try await database.loans.notices(of: ada, page: .first)
        #expect(notices.items.map(\.kind) == [.overdue] && notices.unread == 0)
        #expect(try await database.loans.bookmarks(of: ada).isEmpty)
        #expect(try await database.verify { _, _ in }.allSatisfy(\.passed))
    }
}

private extension SQLiteLoans {
    func bookmarks(of member: UserID) async throws -> [BookmarkEntry] {
        try await SQLiteBookmarks(reads: reads, coversURL: "https://covers.example").bookmarks(of: member, sort: .newest, page: .first)
            .items
    }
}
