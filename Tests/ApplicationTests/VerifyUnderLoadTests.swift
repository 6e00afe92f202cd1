import Application
import Domain
import Foundation
import Synchronization
import Testing

/// Issue 12: with writers running, verify read the chain, the replay's events and the live read
/// models at different moments and said "does NOT verify" about a sound log.
@Suite("verify under load")
struct VerifyUnderLoadTests {
    final class Flag: Sendable { let raised = Mutex(false) }

    @Test func everyVerifyPassesWhileMembersBorrowAndReturnAndBooksAreAdded() async throws {
        let t = try TestLibrary()
        let library = t.library
        var books: [BookID] = []
        for n in 1...8 {
            books.append(
                try await library.catalogue.addBook.execute(BookDraft(title: "Book \(n)", authors: ["A"]), copies: 2, by: .cliOperator).id)
        }
        var members: [Principal] = []
        for n in 1...4 {
            let form = SignupForm(email: "member\(n)@example.org", password: "Member-Pass1", country: "FR")
            let token = try #require(try await library.accounts.signUp.execute(form, by: .anonymous).session?.token)
            members.append(try await library.accounts.authenticate.execute(token: token))
        }
        let stop = Flag()
        let (runs, appended) = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, member) in members.enumerated() {
                let book = books[index * 2]
                group.addTask {
                    var cycles = 0
                    while !stop.raised.withLock({ $0 }) {
                        let loan = try await library.circulation.borrow.execute([book], by: member)[0]
                        _ = try await library.circulation.giveBack.execute(loan.id, by: member)
                        cycles += 1
                    }
                    return cycles
                }
            }
            group.addTask {
                var added = 0
                while !stop.raised.withLock({ $0 }) {
                    _ = try await library.catalogue.addBook.execute(
                        BookDraft(title: "More \(added)", authors: ["B"]), copies: 1, by: .cliOperator)
                    added += 1
                }
                return added
            }
            var runs: [(passed: Bool, during: Int64, failures: [AuditCheck])] = []
            for _ in 0..<8 {
                let before = try await t.database.headPosition()
                let checks = try await library.verifyLog.execute(by: .cliOperator)
                let during = try await t.database.headPosition() - before
                runs.append((checks.allSatisfy(\.passed), during, checks.filter { !$0.passed }))
            }
            stop.raised.withLock { $0 = true }
            return (runs, try await group.reduce(0, +))
        }
        #expect(appended > 0)
        #expect(runs.filter { $0.during > 0 }.count >= 4, "the load did not overlap the verifies: \(runs.map(\.during))")
        for run in runs where !run.passed { Issue.record("verify failed with \(run.during) events appended meanwhile: \(run.failures)") }
    }
}
