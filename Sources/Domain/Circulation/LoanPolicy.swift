import Foundation

/// How lending works: the configurable numbers, and "overdue" defined once.
public struct LoanPolicy: Equatable, Sendable {
    public var maxActiveLoans = 5
    /// Copies one walk-in borrower (a name, no account) may have out at once
    /// (`SHELFMARK_MAX_WALKIN_LOANS`; by default the members' limit).
    public var maxWalkInLoans = 5
    public var period: TimeInterval = 14 * 24 * 3600
    public var maxRenewals = 2
    public var dueSoonNotice: TimeInterval = 2 * 24 * 3600
    /// Holds a member may have at once, waiting or ready (`SHELFMARK_MAX_HOLDS`).
    public var maxActiveHolds = 5
    /// How long a copy set aside for a member is kept for them (`SHELFMARK_PICKUP_DAYS`).
    public var pickupPeriod: TimeInterval = 3 * 24 * 3600
    public init() {}

    /// "Overdue", the one definition: not returned, and the due date has come (due exactly `now`
    /// is overdue). The loan, the patron and the application's `LoanSummary` all ask this. Its
    /// mirror in SQL is the loans read model's `dueBy` filter, `returned_at IS NULL AND due_at <= ?`
    /// (`SQLiteLoans.loans`), which agrees at the millisecond precision the log stores dates in;
    /// `OverdueMirrorTests` checks the two agree around the boundary.
    public static func isOverdue(dueAt: Date, returnedAt: Date?, now: Date) -> Bool {
        returnedAt == nil && dueAt <= now
    }

    /// Due within the warning window before the due date, and not overdue yet.
    public func isDueSoon(dueAt: Date, now: Date) -> Bool {
        !Self.isOverdue(dueAt: dueAt, returnedAt: nil, now: now) && now >= dueAt.addingTimeInterval(-dueSoonNotice)
    }

    /// The latest due date: the last second of year 9999. Dates are written with four-digit years
    /// (RFC 3339) and compared as that text in SQL; an outside test renewed a ten-year loan a
    /// thousand times (both within the settings' ranges) to year 12030, which sorted as overdue.
    public static let latestDue = Date(timeIntervalSince1970: 253_402_300_799)

    /// The due date of a loan made `now`: one period later (at most `latestDue`).
    public func due(from now: Date) -> Date { min(now.addingTimeInterval(period), Self.latestDue) }

    /// The due date after a renewal: one more period from the current due date, or from `now`
    /// when that is later, as library systems do (renewing early never shortens the loan, and two
    /// renewals add two periods); at most `latestDue`.
    public func renewedDue(_ dueAt: Date, now: Date) -> Date { min(max(dueAt, now).addingTimeInterval(period), Self.latestDue) }

    /// "The pickup date has passed", the one definition: a copy set aside until `until` is no
    /// longer kept from `until` on (as a loan due exactly now is overdue).
    public static func isPickupOver(until: Date, now: Date) -> Bool { until <= now }

    /// The date until which a copy set aside at `now` is kept.
    public func pickupUntil(_ now: Date) -> Date { now.addingTimeInterval(pickupPeriod) }
}
