import Application
import CoreMetrics

/// The gauges read from the read models at each scrape rather than kept up to date event by event:
/// active loans, overdue loans and the projections' lag behind the log.
struct LibraryGauges: Sendable {
    let status: ReadLibraryStatus
    let activeLoans: Gauge
    let overdueLoans: Gauge
    let projectionLag: Gauge
    /// Scrapes whose status could not be read (the gauges keep their last values).
    let failures: Counter

    init(_ status: ReadLibraryStatus, factory: any MetricsFactory) {
        self.status = status
        activeLoans = Gauge(label: "shelfmark_loans_active", factory: factory)
        overdueLoans = Gauge(label: "shelfmark_loans_overdue", factory: factory)
        projectionLag = Gauge(label: "shelfmark_projection_lag_events", factory: factory)
        failures = Counter(label: "shelfmark_status_read_failures_total", factory: factory)
    }

    /// Reads the status now and sets the gauges.
    func refresh() async {
        guard let now = try? await status.execute() else {
            failures.increment()
            return
        }
        activeLoans.record(now.activeLoans)
        overdueLoans.record(now.overdueLoans)
        projectionLag.record(now.projectionLag)
    }
}
