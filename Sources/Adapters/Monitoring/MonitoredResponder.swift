import Application
import CoreMetrics
import Hummingbird
import NIOCore

/// The site with its metrics: every request is counted and timed (`RequestMetrics`), and
/// `GET /metrics` answers every metric in Prometheus's text format to those `MetricsAccess`
/// admits. Anyone else asking for `/metrics` gets what the site answers for a path it does not
/// know, so the endpoint is not seen to exist.
public struct MonitoredResponder<Site: HTTPResponder>: HTTPResponder where Site.Context: RemoteAddressRequestContext {
    public typealias Context = Site.Context
    let site: Site
    let monitor: Monitor
    let access: MetricsAccess
    let requests: RequestMetrics
    let status: LibraryGauges

    /// `status` is read at each scrape for the gauges (loans, overdue loans, projection lag).
    public init(_ site: Site, monitor: Monitor, access: MetricsAccess, status: ReadLibraryStatus) {
        self.site = site
        self.monitor = monitor
        self.access = access
        requests = RequestMetrics(factory: monitor.factory)
        self.status = LibraryGauges(status, factory: monitor.factory)
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            if request.uri.path == "/metrics", request.method == .get,
                access.allows(peer: context.remoteAddress?.ipAddress, headers: request.headers)
            {
                context.coreContext.endpointPath.value = "/metrics"
                response = await scrape()
            } else {
                response = try await site.respond(to: request, context: context)
            }
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context, status: status, since: start)
            throw error
        }
        record(request, context, status: response.status.code, since: start)
        return response
    }

    private func record(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        requests.record(
            route: context.endpointPath, method: request.method, status: status,
            nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The gauges read now, then every metric.
    private func scrape() async -> Response {
        await status.refresh()
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: monitor.exposition())))
    }
}
