import Domain
import Foundation
import Testing

@Suite("Closing an account, with erasure")
struct ClosingTests {
    let ada = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    func registered(_ role: Role = .member) -> UserEvent {
        .registered(
            UserRegistered(
                user: ada, email: try! EmailAddress(parsing: "ada@example.org"), displayName: "Ada", country: "GB",
                passwordHash: "$2b$04$hash", role: role))
    }

    func when(_ facts: ClosingFacts, _ events: UserEvent...) -> Result<[UserEvent], ClosingRejection> {
        Result { () throws(ClosingRejection) in try UserAggregate.decideClose(facts, UserAggregate.fold(events)) }
    }

    func loan(_ n: Int, due: TimeInterval) -> PatronLoan {
        PatronLoan(member: ada, loan: LoanID(UUID()), book: BookID(UUID()), dueAt: t0 + due * Double(n))
    }

    let free = ClosingFacts(patron: PatronState(), otherLibrarians: 0)

    @Test func aMemberWithNothingOutClosesOnceAndTheEventErasesThem() {
        let closed = UserEvent.closed(UserClosed(user: ada))
        #expect(when(free, registered()) == .success([closed]))
        #expect(closed.erases == ada && registered().erases == nil)
        #expect(UserAggregate.fold([registered(), closed]) == .closed(ada))
        #expect(when(free, registered(), closed) == .success([]))  // closing again decides nothing
        #expect(when(free) == .success([]))  // never registered: the use case says "not found" first
        // A closed account takes no other command.
        #expect(throws: UserRejection.notRegistered) { try UserAggregate.decide(.closeAllSessions, .closed(ada)) }
    }

    @Test func booksOnLoanAreNamedOldestDueFirst() {
        let (late, soon) = (loan(2, due: 86_400), loan(1, due: 3_600))
        let facts = ClosingFacts(patron: PatronState(active: [late.loan: late, soon.loan: soon]), otherLibrarians: 3)
        #expect(when(facts, registered()) == .failure(.activeLoans([soon, late])))
    }

    @Test func holdsKeepTheAccountOpenToo() {
        let hold = PatronHold(member: ada, hold: HoldID(UUID()), book: BookID(UUID()))
        let facts = ClosingFacts(patron: PatronState(holds: [hold.hold: hold]), otherLibrarians: 0)
        #expect(when(facts, registered()) == .failure(.activeHolds([hold])))
    }

    @Test func theLastLibrarianStays() {
        #expect(when(free, registered(.librarian)) == .failure(.lastLibrarian))
        #expect(
            when(ClosingFacts(patron: PatronState(), otherLibrarians: 1), registered(.librarian))
                == .success([.closed(UserClosed(user: ada))]))
    }

    @Test func anErasedRegistrationIsAnAccountClosedSince() throws {
        let erased = try JSONDecoder().decode(
            UserRegistered.self,
            from: Data(#"{"country":null,"displayName":null,"email":null,"passwordHash":null,"role":"member","user":"\#(ada)"}"#.utf8))
        #expect(erased.email == .erased && erased.displayName.known == nil)
        #expect(UserAggregate.fold([.registered(erased)]) == .closed(ada))
        let clear = try JSONEncoder().encode(Personal.known("Ada"))
        #expect(String(decoding: clear, as: UTF8.self) == #""Ada""#)
    }
}
