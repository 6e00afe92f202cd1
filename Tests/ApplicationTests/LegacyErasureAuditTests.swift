import Application
import Composition
import Domain
import Foundation
import InMemory
import LogChain
import Testing

@testable import SQLiteStore

/// What the audit says of a member erased after a log was written before sealing (the golden log
/// of issue 12's time, Ada's events in clear): verify and a verified export count the same events,
/// and history answers for her legacy claim stream as for an address never used.
@Suite("Auditing an erased member's events written before sealing")
struct LegacyErasureAuditTests {
    /// The golden log's library, opened a day after it was written, with Ada's account closed.
    static func closedLegacyLibrary(_ folder: TemporaryFolder) async throws -> (Library, LibraryDatabase) {
        try await GoldenLogTests.replay(GoldenLogTests.lines(of: "log-v1.jsonl"), into: folder).close()
        var configuration = ShelfmarkConfigurationForTests.make(folder.databasePath)
        configuration.durability = .off
        let written = try GoldenLogTests.lines(of: "log-v1.jsonl").map {
            try JSONDecoder().decode(ExportedEvent.self, from: Data($0.utf8))
        }
        let last = try Timestamp.parse(try #require(written.last).recordedAt)
        let (library, database) = try Bootstrap.openLibrary(
            configuration, clock: ManualClock(last.addingTimeInterval(86_400)), ids: SequentialIDs())
        try await library.accounts.closeAccount.member(LegacyErasureTests.ada, by: .cliOperator)
        return (library, database)
    }

    @Test func verifyAndAVerifiedExportCountTheSameEventsOfErasedMembers() async throws {
        // Given a legacy log whose member closed their account
        let folder = TemporaryFolder()
        let (library, database) = try await Self.closedLegacyLibrary(folder)
        defer { try? database.close() }
        // When the library is verified, and an export of it
        let checks = try await library.verifyLog.execute(by: .cliOperator)
        var lines: [String] = []
        _ = try await library.exportLog.execute(by: .cliOperator) { lines.append($0) }
        let exported = library.exportLog.verify(lines: lines)
        // Then both pass and count the same events
        #expect(checks.allSatisfy { $0.passed } && exported.allSatisfy { $0.passed }, "\(checks) \(exported)")
        let personal = try #require(checks.first { $0.name == "personal data" }).detail
        let erased = try #require(exported.first { $0.name == "erased personal data" }).detail
        let counted = try #require(personal.firstMatch(of: /(\d+) events? of erased members predate/)).1
        let listed = try #require(erased.firstMatch(of: /^(\d+) events? of erased members/)).1
        #expect(counted == listed, "verify: \(personal)\nexport: \(erased)")
    }
}

extension LegacyErasureAuditTests {
    @Test func anErasedMembersLegacyClaimStreamAnswersAsAnAddressNeverUsed() async throws {
        // Given a legacy log whose member closed their account; her claim stream is named by her address
        let folder = TemporaryFolder()
        let (library, database) = try await Self.closedLegacyLibrary(folder)
        defer { try? database.close() }
        // When history is asked for it, and for an address never used
        let erased = await Self.failure { try await library.history.execute(.stream("email-ada@example.org"), by: .cliOperator) }
        let unused = await Self.failure { try await library.history.execute(.stream("email-nobody@example.org"), by: .cliOperator) }
        // Then both answer the same "no such stream", naming only the stream asked for
        #expect(erased.map { "\($0)" } == unused.map { "\($0)".replacingOccurrences(of: "nobody", with: "ada") })
        #expect(erased as? NotFound == NotFound(.stream, "email-ada@example.org"), "\(String(describing: erased))")
        // A later page reads as empty too, and the other librarian's stream still answers
        let later = try PageRequest(limit: 1, offset: 1)
        await #expect(throws: NotFound(.stream, "email-ada@example.org")) {
            try await library.history.execute(.stream("email-ada@example.org"), page: later, by: .cliOperator)
        }
        #expect(try await !library.history.execute(.stream("email-lib@example.org"), by: .cliOperator).items.isEmpty)
    }

    static func failure(_ body: () async throws -> Page<HistoryEntry>) async -> (any Error)? {
        do {
            _ = try await body()
            return nil
        } catch { return error }
    }
}
