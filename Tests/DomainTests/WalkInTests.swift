import Domain
import Foundation
import Testing

/// Walk-in borrowers: their own limit per name, names compared ignoring case and spaces.
@Suite("Walk-in borrowers")
struct WalkInTests {
    func loan(_ n: Int, _ name: String = "Mrs Hudson") -> WalkInLoan {
        WalkInLoan(
            borrowerName: name, loan: LoanID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))!),
            book: BookID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", 1000 + n))!))
    }

    func when(_ command: WalkInCommand, _ state: WalkInState) -> Result<[WalkInEvent], WalkInRejection> {
        Result { () throws(WalkInRejection) in try WalkInAggregate.decide(command, state) }
    }

    @Test func namesAreOneBorrowerWhateverTheirCaseAndSpaces() {
        let key = WalkInName.key("Mrs Hudson")
        #expect(WalkInName.key(" mrs  hudson ") == key)
        #expect(WalkInName.key("MRS HUDSON") == key)
        #expect(WalkInName.key("MrsHudson") == key)
        #expect(WalkInName.key("Mrs\u{00A0}Hudson") == key)
        #expect(WalkInName.key("Mrs Hudsen") != key)
        // One name, two Unicode spellings.
        #expect(WalkInName.key("Zoe\u{0308}") == WalkInName.key("ZOË"))
    }

    @Test func aNameBorrowsUpToTheWalkInLimitAndNoMore() {
        let state = WalkInAggregate.fold([.loanStarted(loan(1)), .loanStarted(loan(2))])
        #expect(when(.lend(loan(3), max: 3), state) == .success([.loanStarted(loan(3))]))
        #expect(when(.lend(loan(3), max: 2), state) == .failure(.limitReached(name: "Mrs Hudson", max: 2, active: 2)))
        let returned = WalkInAggregate.fold([.loanEnded(WalkInLoanEnded(loan: loan(1).loan))], from: state)
        #expect(when(.lend(loan(3), max: 2), returned) == .success([.loanStarted(loan(3))]))
    }

    /// Found by an outside walk: a double click at the desk lent the same book twice to one name.
    @Test func aNameHasOneCopyOfABookAtATime() {
        let state = WalkInAggregate.fold([.loanStarted(loan(1))])
        let again = WalkInLoan(borrowerName: "MRS HUDSON", loan: loan(2).loan, book: loan(1).book)
        #expect(when(.lend(again, max: 5), state) == .failure(.alreadyHasBook(name: "Mrs Hudson", book: loan(1).book)))
        let back = WalkInAggregate.fold([.loanEnded(WalkInLoanEnded(loan: loan(1).loan))], from: state)
        #expect(when(.lend(again, max: 5), back) == .success([.loanStarted(again)]))
    }

    @Test func repeatingALoanOrAReturnDecidesNothing() {
        let state = WalkInAggregate.fold([.loanStarted(loan(1))])
        #expect(when(.lend(loan(1), max: 1), state) == .success([]))
        let ended = WalkInEvent.loanEnded(WalkInLoanEnded(loan: loan(1).loan))
        #expect(when(.end(loan(1).loan), state) == .success([ended]))
        #expect(when(.end(loan(1).loan), WalkInAggregate.fold([ended], from: state)) == .success([]))
        #expect(when(.end(loan(9).loan), WalkInState()) == .success([]))
    }

    @Test func loansLentBeforeStreamsWereKeptCountAndAreRecordedByTheFirstEvent() {
        let older = WalkInState.lentBefore([loan(1), loan(2)])
        #expect(when(.lend(loan(3), max: 2), older) == .failure(.limitReached(name: "Mrs Hudson", max: 2, active: 2)))
        let first = when(.lend(loan(3), max: 3), older)
        #expect(first == .success([.loanStarted(loan(1)), .loanStarted(loan(2)), .loanStarted(loan(3))]))
        let ended = WalkInEvent.loanEnded(WalkInLoanEnded(loan: loan(2).loan))
        #expect(when(.end(loan(2).loan), older) == .success([.loanStarted(loan(1)), .loanStarted(loan(2)), ended]))
        let after = WalkInAggregate.fold([.loanStarted(loan(1)), .loanStarted(loan(2)), .loanStarted(loan(3))], from: older)
        #expect(after.unrecorded.isEmpty && after.active.count == 3)
    }
}

/// The ASCII fast path of `WalkInName.key` against the composing and folding every other name takes.
@Suite("Walk-in names: ASCII fast path")
struct WalkInNameASCIITests {
    @Test func asciiNamesKeyAsFoundationKeysThem() {
        for name in SortKeysASCIITests.samples {
            // A leading "É" sends the name through Foundation; it folds to "é" and changes nothing after it.
            #expect(WalkInName.key("É" + name) == "é" + WalkInName.key(name), "\(name.debugDescription)")
        }
    }
}
