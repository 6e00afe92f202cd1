import Domain
import Foundation

/// Lists loans: a member's own, or (librarians) who has which book, optionally only the overdue.
public struct ListLoans: Sendable {
    let deps: CirculationDependencies

    /// One page of the principal's own loans, active and past.
    public func mine(page: PageRequest = .first, by principal: Principal) async throws -> Page<LoanSummary> {
        let (member, _) = try Authorization.user(.listOwnLoans, by: principal)
        return try await deps.loans.loans(LoanFilter(member: member, includeReturned: true), page: page)
    }

    /// One page of the active loans, of one member, one walk-in borrower's name (compared as
    /// `WalkInName.key` compares), one book, or all; only the overdue ones when asked.
    public func active(
        member: UserID? = nil, book: BookID? = nil, walkIn: String? = nil, overdueOnly: Bool = false, page: PageRequest = .first,
        by principal: Principal
    ) async throws -> Page<LoanSummary> {
        try Authorization.require(.listLoans, by: principal)
        let filter = LoanFilter(member: member, book: book, walkIn: walkIn, dueBy: overdueOnly ? deps.now : nil)
        return try await deps.loans.loans(filter, page: page)
    }

    /// Whether a loan is overdue now, by the injected clock.
    public func isOverdue(_ loan: LoanSummary) -> Bool { loan.isOverdue(at: deps.now) }
}

/// Issues due-soon and overdue notices, each exactly once per loan and due date: the loan's stream
/// records the notice and optimistic concurrency keeps concurrent scanners from issuing it twice.
/// Only the clock decides what is issued; a scan at another moment is a rehearsal.
public struct ScanNotices: Sendable {
    let deps: CirculationDependencies

    /// Issues the notices due now, by the clock, and expires the holds whose pickup date has
    /// passed (`ExpireHolds`: their copies go to the next in line, with a ready-for-pickup
    /// notice); returns the number of loan notices issued.
    @discardableResult
    public func execute(by principal: Principal) async throws -> Int {
        try Authorization.require(.scanNotices, by: principal)
        try await ExpireHolds(deps: deps).execute(by: principal)
        let now = deps.now
        var issued = 0
        for loan in try await dueWithin(now) {
            issued += try await deps.runner.transact(by: principal) { transaction in
                let loaded = try await transaction.load(LoanAggregate.self, .loan(loan.id))
                return try transaction.decide(.issueNotices(now: now, policy: deps.policy), on: loaded, else: LoanRefused.init).count
            }
        }
        return issued
    }

    /// A rehearsal: the notices a scan at `moment` would issue to the loans as they are now,
    /// oldest due first, issuing none (a scan "in the future" once issued real notices dated then,
    /// and none when the loans really were overdue).
    public func rehearse(asOf moment: Date, by principal: Principal) async throws -> [NoticeIssued] {
        try Authorization.require(.scanNotices, by: principal)
        var notices: [NoticeIssued] = []
        for loan in try await dueWithin(moment) {
            let loaded = try await deps.runner.load(LoanAggregate.self, .loan(loan.id))
            let events = try LoanAggregate.decide(.issueNotices(now: moment, policy: deps.policy), loaded.state)
            notices += events.compactMap { if case .noticeIssued(let notice) = $0 { notice } else { nil } }
        }
        return notices
    }

    /// The active loans due within the warning window of `moment` (or before it).
    private func dueWithin(_ moment: Date) async throws -> [LoanSummary] {
        try await deps.loans.loans(LoanFilter(dueBy: moment.addingTimeInterval(deps.policy.dueSoonNotice)))
    }
}

/// A member's notices: list, unread count, mark read.
public struct MemberNotices: Sendable {
    let deps: CirculationDependencies

    /// One page of the principal's notices, newest first, with the number unread among all of them.
    public func list(page: PageRequest = .first, by principal: Principal) async throws -> NoticePage {
        try await deps.notices.notices(of: try Authorization.user(.readOwnNotices, by: principal).0, page: page)
    }

    /// Marks one notice (or, with nil, every notice) of the principal read. Another member's notice is not found.
    public func markRead(_ id: String?, by principal: Principal) async throws {
        let (member, _) = try Authorization.user(.readOwnNotices, by: principal)
        let mine = try await deps.notices.noticeIDs(of: member)
        let ids = id.map { [$0] } ?? mine
        if let id, !mine.contains(id) { throw NotFound(.notice, id) }
        try await deps.runner.transact(InboxAggregate.self, .inbox(member), by: principal) { InboxAggregate.decide((member, ids), $0) }
    }
}
