import Application
import Composition
import Domain
import Foundation
import InMemory
import LogChain
import Testing

@testable import SQLiteStore

/// A member registered before personal data was sealed (the golden log of issue 12's time, whose
/// events hold Ada's address, name and hash in clear) closes their account: the stored text cannot
/// change, but every read model, view and export leaves it out, `audit verify` still passes and
/// counts those events, and an export verifies, naming what it left out.
@Suite("Closing an account written before sealing")
struct LegacyErasureTests {
    static let ada = UserID("b0e09259-52cd-4504-8f11-99899cc75279")!
    static let hash = "$2b$04$K2V2Z8ebIAwaA1BnpfnKm.Yox9fM7LABEkYJ2TySfn/6iCtnBUACq"

    @Test func theGoldenLogsMemberIsErasedFromEveryViewAndTheLogStillVerifies() async throws {
        let folder = TemporaryFolder()
        try await GoldenLogTests.replay(GoldenLogTests.lines(of: "log-v1.jsonl"), into: folder).close()
        var configuration = ShelfmarkConfigurationForTests.make(folder.databasePath)
        configuration.durability = .off
        let opened = try GoldenLogTests.lines(of: "log-v1.jsonl").map { try JSONDecoder().decode(ExportedEvent.self, from: Data($0.utf8)) }
            .first { $0.type == "loan.opened.v1" }
        let lentAt = try Timestamp.parse(try #require(opened).recordedAt)
        // Closing a day after the golden log was written.
        let clock = ManualClock(lentAt.addingTimeInterval(86_400))
        let (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: SequentialIDs())
        defer { try? database.close() }

        let pastBefore = try await library.timeTravel.execute(at: lentAt, view: .loans, by: .cliOperator)
        #expect(pastBefore.loans.map(\.borrowerName) == ["ada"], "\(pastBefore.events) \(pastBefore.loans)")
        // The address still finds the account through its legacy claim stream, and logging in records there.
        #expect(try await library.accounts.members.find("ada@example.org", by: .cliOperator) == Self.ada)
        try await library.accounts.closeAccount.member(Self.ada, by: .cliOperator)
        await #expect(throws: NotFound.self) { try await library.accounts.members.find("ada@example.org", by: .cliOperator) }

        let checks = try await library.verifyLog.execute(by: .cliOperator)
        #expect(checks.allSatisfy { $0.passed }, "\(checks)")
        let personal = try #require(checks.first { $0.name == "personal data" })
        #expect(personal.detail.contains("1 member erased") && personal.detail.contains("events of erased members predate encryption"))
        #expect(try await database.loans.loans(LoanFilter(member: Self.ada, includeReturned: true)).map(\.borrowerName) == [""])
        let past = try await library.timeTravel.execute(at: lentAt, view: .loans, by: .cliOperator).loans
        #expect(past.map(\.borrower) == [Self.ada] && past.map(\.borrowerName) == [""], "\(past) at \(lentAt)")
        // Her legacy claim stream answers as an address never used (LegacyErasureAuditTests).
        await #expect(throws: NotFound.self) { try await library.history.execute(.stream("email-ada@example.org"), by: .cliOperator) }
        let account = try await library.history.execute(.stream("user-\(Self.ada)"), by: .cliOperator).items
        #expect(account.first?.payload["displayName"] == .null && account.first?.payload["email"] == .null)

        var lines: [String] = []
        _ = try await library.exportLog.execute(secrets: .included, by: .cliOperator) { lines.append($0) }
        let export = lines.joined(separator: "\n")
        for secret in ["ada@example.org", Self.hash, #"\"displayName\":\"ada\""#] {
            #expect(!export.contains(secret), "\(secret) in the export")
        }
        #expect(export.contains("lib@example.org"))  // the other librarian is not erased
        let verified = library.exportLog.verify(lines: lines)
        #expect(verified.allSatisfy { $0.passed } && verified.map(\.name) == ["hash chain", "erased personal data"], "\(verified)")
        #expect(verified.last?.detail.contains("events of erased members (positions") == true)
        // A redaction that is not one of an erased member's fields (nor a secret) fails the export.
        let forged = try #require(
            lines.firstIndex {
                $0.contains(#""type":"user.registered.v1""#) && $0.contains("email-erased") == false && $0.contains("redacted")
            })
        var tampered = lines
        tampered[forged] = tampered[forged].replacingOccurrences(of: #""redacted":["#, with: #""redacted":["role","#)
        #expect(!library.exportLog.verify(lines: tampered).allSatisfy { $0.passed })
    }
}
