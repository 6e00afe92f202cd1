import Domain
import Foundation
import Testing

@Suite("Loan, patron and lending rules")
struct CirculationTests {
    let member = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let book = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = LoanPolicy()
    let day: TimeInterval = 24 * 3600

    func loanID(_ n: Int) -> LoanID { LoanID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))!) }
    func bookID(_ n: Int) -> BookID { BookID(UUID(uuidString: String(format: "00000000-0000-0000-0001-%012x", n))!) }
    var opened: LoanOpened {
        LoanOpened(loan: loanID(1), book: book, bookTitle: "Dune", borrower: member, borrowerName: "Ada", lentAt: t0, dueAt: t0 + 14 * day)
    }
    var lent: LoanState { LoanAggregate.fold([.opened(opened)]) }

    func loan(_ command: LoanCommand, _ state: LoanState) -> Result<[LoanEvent], LoanRejection> {
        Result { () throws(LoanRejection) in try LoanAggregate.decide(command, state) }
    }
    func patron(_ command: PatronCommand, _ state: PatronState) -> Result<[PatronEvent], PatronRejection> {
        Result { () throws(PatronRejection) in try PatronAggregate.decide(command, state) }
    }
    func patronWith(_ count: Int, dueAt: Date) -> PatronState {
        PatronAggregate.fold(
            (1...max(1, count)).prefix(count).map {
                .loanStarted(PatronLoan(member: member, loan: loanID(100 + $0), book: bookID($0), dueAt: dueAt))
            })
    }

    @Test func aBookLendsOnlyTheCopiesOnTheShelf() throws {
        let shelf = BookState.inCatalogue(CataloguedBook(id: book, details: BookDetails(title: "T", authors: ["A"]), copies: 2, onLoan: 1))
        let events = try BookAggregate.decide(.lend(loanID(1)), shelf)
        #expect(events == [.copyLent(CopyMovement(book: book, loan: loanID(1), onLoan: 2))])
        #expect(throws: BookRejection.noCopyAvailable(book: book, copies: 2)) {
            try BookAggregate.decide(.lend(loanID(2)), BookAggregate.fold(events, from: shelf))
        }
        #expect(throws: BookRejection.copiesOnLoan(book: book, onLoan: 2)) {
            try BookAggregate.decide(.withdraw, BookAggregate.fold(events, from: shelf))
        }
    }

    @Test func returningTwiceChangesNothing() {
        let returned = LoanEvent.returned(LoanReturned(loan: loanID(1), book: book, borrower: member, at: t0 + day))
        #expect(loan(.giveBack(now: t0 + day), lent) == .success([returned]))
        #expect(loan(.giveBack(now: t0 + 2 * day), LoanAggregate.fold([returned], from: lent)) == .success([]))
        #expect(loan(.giveBack(now: t0), .absent) == .failure(.noSuchLoan))
    }

    @Test func renewalExtendsFromTheDueDateAtMostTwiceAndNeverWhenOverdue() {
        // Renewing twice right after borrowing adds two loan periods (it once moved the date by seconds).
        let first = LoanEvent.renewed(LoanRenewed(loan: loanID(1), dueAt: t0 + 28 * day, renewals: 1))
        #expect(loan(.renew(now: t0 + 1, policy: policy, waiting: 0), lent) == .success([first]))
        let second = LoanEvent.renewed(LoanRenewed(loan: loanID(1), dueAt: t0 + 42 * day, renewals: 2))
        #expect(loan(.renew(now: t0 + 2, policy: policy, waiting: 0), LoanAggregate.fold([first], from: lent)) == .success([second]))
        let twice = LoanAggregate.fold([first, second], from: lent)
        #expect(loan(.renew(now: t0 + 3 * day, policy: policy, waiting: 0), twice) == .failure(.renewalLimitReached(max: 2)))
        #expect(loan(.renew(now: t0 + 14 * day, policy: policy, waiting: 0), lent) == .failure(.overdueCannotBeRenewed))
    }

    @Test func renewalCountsFromNowWhenThatIsLaterThanTheDueDate() {
        // Only reachable with a due date in the past that is not overdue yet: a due date exactly now is overdue,
        // so the rule is checked on its own.
        #expect(policy.renewedDue(t0 + 14 * day, now: t0 + 20 * day) == t0 + 34 * day)
        #expect(policy.renewedDue(t0 + 14 * day, now: t0 + day) == t0 + 28 * day)
    }

    @Test func noDueDateIsLaterThanTheLastSecondOfYear9999() {
        var tenYears = LoanPolicy()
        tenYears.period = 3_650 * day
        var due = tenYears.due(from: t0)
        for _ in 0..<1_000 { due = tenYears.renewedDue(due, now: t0) }
        #expect(due == LoanPolicy.latestDue)
        #expect(UTCTime.format(millis: Int64(due.timeIntervalSince1970 * 1_000), milliseconds: false) == "9999-12-31T23:59:59Z")
        #expect(!LoanPolicy.isOverdue(dueAt: due, returnedAt: nil, now: t0))
        var endless = LoanPolicy()
        endless.period = 3_650 * day
        #expect(endless.due(from: LoanPolicy.latestDue) == LoanPolicy.latestDue)
    }

    @Test func renewalIsRefusedWhileOtherMembersWaitForTheBook() {
        #expect(loan(.renew(now: t0 + day, policy: policy, waiting: 2), lent) == .failure(.othersWaiting(count: 2)))
        // The overdue refusal comes first: an overdue loan is returned, whoever waits.
        #expect(loan(.renew(now: t0 + 14 * day, policy: policy, waiting: 1), lent) == .failure(.overdueCannotBeRenewed))
    }

    @Test func aRenewalReArmsTheDueSoonNoticeForTheNewDueDate() throws {
        let soon = t0 + 13 * day
        let warned = LoanAggregate.fold(try LoanAggregate.decide(.issueNotices(now: soon, policy: policy), lent), from: lent)
        #expect(try LoanAggregate.decide(.issueNotices(now: soon + 1, policy: policy), warned) == [])
        let renewed = LoanAggregate.fold(try LoanAggregate.decide(.renew(now: soon + 2, policy: policy, waiting: 0), warned), from: warned)
        #expect(try LoanAggregate.decide(.issueNotices(now: soon + 3, policy: policy), renewed) == [])
        let again = try LoanAggregate.decide(.issueNotices(now: t0 + 27 * day, policy: policy), renewed)
        #expect(
            again == [
                .noticeIssued(
                    NoticeIssued(
                        loan: loanID(1), member: member, bookTitle: "Dune", kind: .dueSoon, dueAt: t0 + 28 * day, at: t0 + 27 * day))
            ])
        #expect(
            try LoanAggregate.decide(.issueNotices(now: t0 + 27 * day + 1, policy: policy), LoanAggregate.fold(again, from: renewed)) == [])
    }

    @Test func noticesAreIssuedOnceEach() throws {
        let soon = t0 + 12 * day + 1
        let dueSoon = try LoanAggregate.decide(.issueNotices(now: soon, policy: policy), lent)
        #expect(dueSoon.count == 1)
        let afterSoon = LoanAggregate.fold(dueSoon, from: lent)
        #expect(try LoanAggregate.decide(.issueNotices(now: soon + 60, policy: policy), afterSoon) == [])
        let late = try LoanAggregate.decide(.issueNotices(now: t0 + 15 * day, policy: policy), afterSoon)
        #expect(
            late == [
                .noticeIssued(
                    NoticeIssued(
                        loan: loanID(1), member: member, bookTitle: "Dune", kind: .overdue, dueAt: t0 + 14 * day, at: t0 + 15 * day))
            ])
        #expect(
            try LoanAggregate.decide(.issueNotices(now: t0 + 30 * day, policy: policy), LoanAggregate.fold(late, from: afterSoon)) == [])
        #expect(try LoanAggregate.decide(.issueNotices(now: t0 + day, policy: policy), lent) == [])
    }

    @Test func theLimitCountsTheRequest() {
        let three = patronWith(3, dueAt: t0 + 14 * day)
        let request = [loanID(1): bookID(10), loanID(2): bookID(11), loanID(3): bookID(12)]
        #expect(
            patron(.borrow(member: member, loans: request, now: t0, dueAt: t0 + 14 * day, policy: policy), three)
                == .failure(.limitReached(max: 5, active: 3, requested: 3)))
        let two = [loanID(1): bookID(10), loanID(2): bookID(11)]
        #expect((try? patron(.borrow(member: member, loans: two, now: t0, dueAt: t0 + 14 * day, policy: policy), three).get())?.count == 2)
    }

    @Test func moreThanFiveInOneRequestIsRefusedOutright() {
        let six = Dictionary(uniqueKeysWithValues: (1...6).map { (loanID($0), bookID($0)) })
        #expect(
            patron(.borrow(member: member, loans: six, now: t0, dueAt: t0, policy: policy), PatronState())
                == .failure(.tooManyInOneRequest(max: 5)))
    }

    @Test func anOverdueLoanBlocksBorrowing() {
        let late = patronWith(1, dueAt: t0 - day)
        #expect(
            patron(.borrow(member: member, loans: [loanID(1): bookID(9)], now: t0, dueAt: t0 + 14 * day, policy: policy), late)
                == .failure(.blockedByOverdue(loans: [PatronLoan(member: member, loan: loanID(101), book: bookID(1), dueAt: t0 - day)])))
    }

    @Test func theSameBookTwiceIsRefused() {
        let borrowed = patronWith(1, dueAt: t0 + day)
        #expect(
            patron(.borrow(member: member, loans: [loanID(1): bookID(1)], now: t0, dueAt: t0 + 14 * day, policy: policy), borrowed)
                == .failure(.duplicateBook(bookID(1))))
    }

    @Test func endingALoanTwiceDecidesNothing() throws {
        let one = patronWith(1, dueAt: t0 + day)
        let ended = try PatronAggregate.decide(.end(loanID(101)), one)
        #expect(ended.count == 1)
        #expect(try PatronAggregate.decide(.end(loanID(101)), PatronAggregate.fold(ended, from: one)) == [])
    }

    // "Overdue", the one definition (LoanPolicy.isOverdue), and everything that asks it.

    @Test func aLoanIsOverdueFromItsDueInstantUntilItIsReturned() {
        let due = t0 + 14 * day
        #expect(!LoanPolicy.isOverdue(dueAt: due, returnedAt: nil, now: due - 1))
        #expect(LoanPolicy.isOverdue(dueAt: due, returnedAt: nil, now: due))
        #expect(LoanPolicy.isOverdue(dueAt: due, returnedAt: nil, now: due + 1))
        #expect(!LoanPolicy.isOverdue(dueAt: due, returnedAt: due + 1, now: due + 2))
        #expect(!LoanPolicy.isOverdue(dueAt: due, returnedAt: due - 1, now: due + 2))
    }

    @Test func theLoanThePatronAndTheNoticesAgreeOnOverdue() {
        let due = t0 + 14 * day
        let patron = patronWith(1, dueAt: due)
        for now in [due - 1, due, due + 1] {
            let rule = LoanPolicy.isOverdue(dueAt: due, returnedAt: nil, now: now)
            #expect(lent.isOverdue(at: now) == rule)
            #expect(!patron.overdue(at: now).isEmpty == rule)
            let notices = (try? LoanAggregate.decide(.issueNotices(now: now, policy: policy), lent)) ?? []
            #expect(notices.contains { if case .noticeIssued(let n) = $0 { n.kind == .overdue } else { false } } == rule)
            #expect(policy.isDueSoon(dueAt: due, now: now) == !rule)
        }
    }

    // LoanState: lent, then returned, switched over explicitly.

    @Test func givenALentLoanWhenItIsReturnedThenItsStateIsReturned() {
        let returned = LoanAggregate.fold(
            [.returned(LoanReturned(loan: loanID(1), book: book, borrower: member, at: t0 + day))], from: lent)
        guard case .lent(let record) = lent else { Issue.record("a new loan is lent"); return }
        #expect(returned == .returned(record, at: t0 + day))
        #expect(returned.record == record && returned.returnedAt == t0 + day && lent.returnedAt == nil)
        #expect(!returned.isOverdue(at: t0 + 30 * day))
        #expect(LoanAggregate.initial.record == nil && !LoanAggregate.initial.isOverdue(at: t0))
    }

    @Test func givenAReturnedLoanWhenRenewedOrScannedThenRefusedOrNothing() {
        let returned = LoanAggregate.fold(
            [.returned(LoanReturned(loan: loanID(1), book: book, borrower: member, at: t0 + day))], from: lent)
        #expect(loan(.renew(now: t0 + 2 * day, policy: policy, waiting: 0), returned) == .failure(.alreadyReturned))
        #expect(loan(.issueNotices(now: t0 + 30 * day, policy: policy), returned) == .success([]))
        #expect(loan(.open(opened), returned) == .success([]))
    }

    @Test func givenALoanWhenTheSameIdIsOpenedThenOnlyTheSameLoanIsARepeat() {
        #expect(loan(.open(opened), .absent) == .success([.opened(opened)]))
        #expect(loan(.open(opened), lent) == .success([]))
        let other = LoanOpened(
            loan: loanID(1), book: bookID(2), bookTitle: "Emma", borrower: member, borrowerName: "Ada", lentAt: t0, dueAt: t0 + day)
        #expect(loan(.open(other), lent) == .failure(.idInUse))
    }

    // The borrowing rules (PatronRules), each on its own.

    @Test func givenLoansDueLaterWhenTheMemberBorrowsThenTheOverdueBlockHolds() {
        let due = t0 + 14 * day
        let request: [LoanID: BookID] = [loanID(1): bookID(9)]
        #expect(
            (try? patron(
                .borrow(member: member, loans: request, now: due - 1, dueAt: due + 14 * day, policy: policy), patronWith(1, dueAt: due)
            ).get())?.count == 1)
    }

    @Test func givenALoanDueExactlyNowWhenTheMemberBorrowsThenTheOverdueBlockRefuses() {
        let due = t0 + 14 * day
        #expect(
            patron(
                .borrow(member: member, loans: [loanID(1): bookID(9)], now: due, dueAt: due + 14 * day, policy: policy),
                patronWith(1, dueAt: due))
                == .failure(.blockedByOverdue(loans: [PatronLoan(member: member, loan: loanID(101), book: bookID(1), dueAt: due)])))
    }

    @Test func givenAnOverdueLoanWhenItEndsThenTheMemberMayBorrowAgain() throws {
        let late = patronWith(1, dueAt: t0 - day)
        let back = PatronAggregate.fold(try PatronAggregate.decide(.end(loanID(101)), late), from: late)
        #expect(
            (try? patron(.borrow(member: member, loans: [loanID(1): bookID(9)], now: t0, dueAt: t0 + 14 * day, policy: policy), back).get())?
                .count == 1)
    }

    @Test func givenFourLoansWhenOneMoreIsAskedThenTheLimitIsReachedExactly() {
        let four = patronWith(4, dueAt: t0 + 14 * day)
        #expect(
            (try? patron(.borrow(member: member, loans: [loanID(1): bookID(10)], now: t0, dueAt: t0 + 14 * day, policy: policy), four).get())?
                .count == 1)
        let five = patronWith(5, dueAt: t0 + 14 * day)
        #expect(
            patron(.borrow(member: member, loans: [loanID(1): bookID(10)], now: t0, dueAt: t0 + 14 * day, policy: policy), five)
                == .failure(.limitReached(max: 5, active: 5, requested: 1)))
    }

    @Test func givenSeveralBrokenRulesWhenBorrowingThenTheFirstOfTheListIsTheAnswer() {
        // Overdue and over the limit: the overdue block comes first, as PatronRules.all lists it.
        let lateAndFull = patronWith(5, dueAt: t0 - day)
        let answer = patron(
            .borrow(member: member, loans: [loanID(1): bookID(10)], now: t0, dueAt: t0 + 14 * day, policy: policy), lateAndFull)
        guard case .failure(.blockedByOverdue(let loans)) = answer else {
            Issue.record("expected the overdue block, got \(answer)"); return
        }
        #expect(Set(loans.map(\.loan)) == Set((101...105).map(loanID)))
    }

    @Test func givenARenewalAlreadyRecordedWhenTheSameRenewalComesThenNothingIsDecided() throws {
        let one = patronWith(1, dueAt: t0 + day)
        let renewal = PatronLoan(member: member, loan: loanID(101), book: bookID(1), dueAt: t0 + 15 * day)
        let renewed = try PatronAggregate.decide(.renew(renewal), one)
        #expect(renewed == [.loanRenewed(renewal)])
        #expect(try PatronAggregate.decide(.renew(renewal), PatronAggregate.fold(renewed, from: one)) == [])
    }
}
