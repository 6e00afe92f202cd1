import Application
import Composition
import Domain
import Foundation
import InMemory
import Testing

/// Members borrowing, returning, renewing and holding a few books all at once, on the real SQLite
/// store with `synchronous=FULL` (the flush beside the writer) and commands that anticipate the
/// appends in flight: afterwards the streams and the read models tell the same story, no copy
/// was lent twice, no member passed the limit, and the log verifies.
@Suite("Circulation churn on the real SQLite store", .timeLimit(.minutes(5)))
struct CirculationChurnTests {
    /// A small seeded generator (SplitMix64): each member's steps are the same at every run.
    struct Steps: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func theStreamsAndTheReadModelsAgreeAfterAChurn() async throws {
        let folder = TemporaryFolder()
        var configuration = ShelfmarkConfiguration(databasePath: folder.databasePath)
        configuration.durability = .full
        configuration.bcryptCost = 4
        let (library, database) = try Bootstrap.openLibrary(configuration, clock: ManualClock(), ids: RandomIDs())
        defer { try? database.close() }
        var books: [BookID] = []
        for n in 1...3 {
            books.append(
                try await library.catalogue.addBook.execute(BookDraft(title: "Book \(n)", authors: ["A"]), copies: 2, by: .cliOperator).id)
        }
        var members: [(id: UserID, principal: Principal)] = []
        for n in 1...16 {
            let form = SignupForm(email: "m\(n)@example.org", password: "Member-Pass1", country: "FR")
            let token = try #require(try await library.accounts.signUp.execute(form, by: .anonymous).session?.token)
            let principal = try await library.accounts.authenticate.execute(token: token)
            guard case .user(let id, _, _) = principal else { throw NotFound(.user, "m\(n)") }
            members.append((id, principal))
        }
        let circulation = library.circulation
        let ids = books
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (n, member) in members.enumerated() {
                group.addTask {
                    var steps = Steps(state: UInt64(n + 1))
                    for _ in 0..<40 { try await Self.step(&steps, member.principal, ids, circulation) }
                }
            }
            try await group.waitForAll()
        }
        // Each book: the copies its stream says are out are the loans the read model has open, within its copies.
        for book in books {
            let events = try await database.eventStore.read(.book(book)).compactMap { BookAggregate.unwrap($0.event) }
            guard case .inCatalogue(let record) = BookAggregate.fold(events, from: .absent) else { throw NotFound(.book, "\(book)") }
            let open = try await database.loans.loans(LoanFilter(book: book))
            #expect(record.onLoan == open.count)
            #expect(record.onLoan <= record.copies)
            #expect(try await library.catalogue.showBook.execute(book).onLoan == record.onLoan)
        }
        // Each member: the loans their stream holds are the ones the read model has open, at most five.
        for member in members {
            let events = try await database.eventStore.read(.patron(member.id)).compactMap { PatronAggregate.unwrap($0.event) }
            let patron = PatronAggregate.fold(events, from: PatronAggregate.initial)
            let open = try await database.loans.loans(LoanFilter(member: member.id))
            #expect(Set(patron.active.keys) == Set(open.map(\.id)))
            #expect(patron.active.count <= LoanPolicy().maxActiveLoans)
        }
        let checks = try await library.verifyLog.execute(by: .cliOperator)
        #expect(checks.filter { !$0.passed }.isEmpty, "\(checks.filter { !$0.passed })")
    }

    /// One random step of a member: borrow a book, return or renew one of their loans, place or
    /// cancel a hold. Refusals are answers like any other.
    static func step(_ steps: inout Steps, _ member: Principal, _ books: [BookID], _ circulation: CirculationUseCases) async throws {
        let book = books[Int.random(in: 0..<books.count, using: &steps)]
        do {
            switch Int.random(in: 0..<6, using: &steps) {
            case 0, 1: _ = try await circulation.borrow.execute([book], by: member)
            case 2, 3:
                if let loan = try await circulation.list.mine(by: member).items.randomElement(using: &steps) {
                    _ = try await circulation.giveBack.execute(loan.id, by: member)
                }
            case 4:
                if let loan = try await circulation.list.mine(by: member).items.randomElement(using: &steps) {
                    _ = try await circulation.renew.execute(loan.id, by: member)
                }
            default:
                if let hold = try await circulation.holds.list.mine(by: member).items.randomElement(using: &steps) {
                    _ = try await circulation.holds.cancel.execute(hold.id, by: member)
                } else {
                    _ = try await circulation.holds.place.execute(book, by: member)
                }
            }
        } catch is LoanRefused {
        } catch is BookRefused {
        }
    }
}
