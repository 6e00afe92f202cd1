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

    /// One page of the active loans, of one member or one book or all; only the overdue ones when asked.
    public func active(
        member: UserID? = nil, book: BookID? = nil, overdueOnly: Bool = false, page: PageRequest = .first, by principal: Principal
    ) async throws -> Page<LoanSummary> {
        try Authorization.require(.listLoans, by: principal)
        return try await deps.loans.loans(LoanFilter(member: member, book: book, dueBy: overdueOnly ? deps.now : nil), page: page)
    }

    /// Whether a loan is overdue now, by the injected clock.
    public func isOverdue(_ loan: LoanSummary) -> Bool { loan.isOverdue(at: deps.now) }
}

/// Issues due-soon and overdue notices, each exactly once per loan: the loan's stream records the
/// notice and optimistic concurrency keeps concurrent scanners from issuing it twice.
public struct ScanNotices: Sendable {
    let deps: CirculationDependencies

    /// Scans as of `asOf` (default: the clock's now); returns the number of notices issued.
    @discardableResult
    public func execute(asOf: Date? = nil, by principal: Principal) async throws -> Int {
        try Authorization.require(.scanNotices, by: principal)
        let now = asOf ?? deps.now
        var issued = 0
        for loan in try await deps.loans.loans(LoanFilter(dueBy: now.addingTimeInterval(deps.policy.dueSoonNotice))) {
            issued += try await deps.runner.transact(by: principal) { transaction in
                let loaded = try await transaction.load(LoanAggregate.self, .loan(loan.id))
                return try transaction.decide(.issueNotices(now: now, policy: deps.policy), on: loaded, else: LoanRefused.init).count
            }
        }
        return issued
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
