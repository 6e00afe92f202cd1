import CoreMetrics
import Hummingbird
import Synchronization

/// Requests counted and timed by route template, method and status, through swift-metrics. The
/// route is the template the router matched (`/api/v1/books/:id`), never the path: a client asking
/// for a million different paths makes no new series. Every path no route matched is `unmatched`,
/// and a method outside HTTP's usual ones is `other`.
final class RequestMetrics: Sendable {
    private struct Key: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct Series {
        let count: Counter
        let duration: Timer
    }

    private let factory: any MetricsFactory
    private let series = Mutex<[Key: Series]>([:])

    init(factory: any MetricsFactory) { self.factory = factory }

    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Counts one answered request and how long it took.
    func record(route: String?, method: HTTPRequest.Method, status: Int, nanoseconds: Int64) {
        let key = Key(
            route: route.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched",
            method: Self.methods.contains(method.rawValue) ? method.rawValue : "other", status: status)
        let series = series.withLock { all in
            if let known = all[key] { return known }
            let dimensions = [("route", key.route), ("method", key.method), ("status", String(key.status))]
            let made = Series(
                count: Counter(label: "shelfmark_http_requests_total", dimensions: dimensions, factory: factory),
                duration: Timer(label: "shelfmark_http_request_duration_seconds", dimensions: dimensions, factory: factory))
            all[key] = made
            return made
        }
        series.count.increment()
        series.duration.recordNanoseconds(nanoseconds)
    }
}
