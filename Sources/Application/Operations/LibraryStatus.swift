import Foundation

/// What the library holds at one moment, for monitoring (`GET /metrics`): counted from the read
/// models when asked, never kept up to date event by event.
public struct LibraryStatus: Equatable, Sendable {
    /// Loans not returned.
    public var activeLoans: Int
    /// Loans not returned and due at or before the moment (`LoanPolicy.isOverdue`).
    public var overdueLoans: Int
    /// Events in the log that the slowest read model has not applied yet.
    public var projectionLag: Int64

    public init(activeLoans: Int, overdueLoans: Int, projectionLag: Int64) {
        self.activeLoans = activeLoans
        self.overdueLoans = overdueLoans
        self.projectionLag = projectionLag
    }
}

/// How far the read models have applied the log.
public protocol ProjectionProgress: Sendable {
    /// The position of the last event every read model has applied (the slowest one's).
    func projectedPosition() async throws -> Int64
}

/// Reads the library's status now, by the injected clock: the loans register's counts (overdue as
/// the register's filter mirrors `LoanPolicy.isOverdue`) and the distance from the log's head to
/// the slowest read model.
public struct ReadLibraryStatus: Sendable {
    let loans: any LoanRegister
    let head: any HealthCheck
    let projections: any ProjectionProgress
    let clock: any WallClock

    public init(loans: any LoanRegister, head: any HealthCheck, projections: any ProjectionProgress, clock: any WallClock) {
        self.loans = loans
        self.head = head
        self.projections = projections
        self.clock = clock
    }

    /// The counts at this moment; throws when storage does not answer.
    public func execute() async throws -> LibraryStatus {
        let one = try PageRequest(limit: 1)
        let active = try await loans.loans(LoanFilter(), page: one).total
        let overdue = try await loans.loans(LoanFilter(dueBy: clock.now()), page: one).total
        // The projected position first: the head read after it is never behind it.
        let projected = try await projections.projectedPosition()
        let lag = try await head.headPosition() - projected
        return LibraryStatus(activeLoans: active, overdueLoans: overdue, projectionLag: max(0, lag))
    }
}
