import CoreMetrics

/// What one Open Library client (`search` or `lookup`) counts, through swift-metrics: every call
/// by how it ended, and whether its circuit breaker is open.
struct UpstreamMetrics: Sendable {
    /// How a call to Open Library ended.
    enum Outcome: String, CaseIterable {
        /// Answered 200.
        case ok
        /// Answered 404, 422 or another 4xx: Open Library is alive.
        case refused
        /// Unreachable, too slow or failing, every retry included.
        case failed
        /// Not asked: the breaker is open.
        case breakerOpen = "breaker_open"
    }

    private let calls: [Outcome: Counter]
    /// 1 while the breaker is open (from the failure that opens it until a call goes through again), else 0.
    private let breaker: Gauge

    init(client: String, factory: any MetricsFactory) {
        calls = Dictionary(
            uniqueKeysWithValues: Outcome.allCases.map { outcome in
                (
                    outcome,
                    Counter(
                        label: "shelfmark_openlibrary_calls_total", dimensions: [("client", client), ("outcome", outcome.rawValue)],
                        factory: factory)
                )
            })
        breaker = Gauge(label: "shelfmark_openlibrary_breaker_open", dimensions: [("client", client)], factory: factory)
        breaker.record(0)
    }

    /// Counts one call.
    func count(_ outcome: Outcome) { calls[outcome]?.increment() }

    /// Notes the breaker's state.
    func breaker(open: Bool) { breaker.record(open ? 1 : 0) }
}
