import CoreMetrics
import Prometheus

/// One application's metrics: a Prometheus registry of its own, and the swift-metrics factory the
/// adapters record through into it. Each application built gets one (tests build many in one
/// process, and `MetricsSystem.bootstrap` could be called only once), so nothing goes through
/// swift-metrics' global factory.
public struct Monitor: Sendable {
    let registry: PrometheusCollectorRegistry
    /// What the adapters record through (`Counter(label:dimensions:factory:)` and the like).
    public let factory: any MetricsFactory

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Most requests take well under a millisecond: Prometheus's default buckets start at 5 ms.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        // The one value histogram is the group commit's batch size, in appends.
        factory.defaultValueHistogramBuckets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
        self.factory = factory
    }

    /// Every metric, in Prometheus's text exposition format (0.0.4).
    public func exposition() -> [UInt8] { registry.emitToBuffer() }
}
