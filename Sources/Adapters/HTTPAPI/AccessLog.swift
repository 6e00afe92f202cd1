import Application
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Stands in front of the whole site (API, pages, Prolific): gives each request its id, answers it
/// in `X-Request-ID`, stamps it on the events the request records (their correlation id) and on
/// every log line written while serving it, and writes one access line per request: method, route
/// template, status, milliseconds, request id and caller. The line holds no path, query, header or
/// body: those can carry tokens, passwords, emails and Prolific keys.
public struct AccessLog<Inner: HTTPResponder>: HTTPResponder where Inner.Context == LibraryRequestContext {
    let inner: Inner
    /// Peers whose `X-Request-ID` is taken (the reverse proxies that already gave the request one).
    let trustedProxies: Set<String>
    /// Where new request ids come from.
    let ids: any IDGenerator

    public init(_ inner: Inner, trustedProxies: Set<String>, ids: any IDGenerator) {
        self.inner = inner
        self.trustedProxies = trustedProxies
        self.ids = ids
    }

    public func respond(to request: Request, context: LibraryRequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let given = request.headers[.xRequestID]
        let trusted = context.remoteAddress?.ipAddress.map(trustedProxies.contains) ?? false
        let id = RequestID.chosen(given, trusted: trusted) ?? ids.next()
        let trace = RequestTrace(id: id)
        var context = context
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request_id"] = .string(trace.idText)
        let logger = context.logger
        do {
            var response = try await RequestTrace.$current.withValue(trace) { try await inner.respond(to: request, context: context) }
            response.headers[.xRequestID] = trace.idText
            AccessLine(request, context: context, status: response.status, started: started, trace: trace, given: trusted ? given : nil)
                .write(to: logger)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            AccessLine(request, context: context, status: status, started: started, trace: trace, given: trusted ? given : nil)
                .write(to: logger)
            throw error
        }
    }
}

/// How a request's id is chosen (`RequestTrace.idText` writes it).
enum RequestID {
    /// A trusted proxy's id when it is a UUID (the events' correlation ids are), else nil: a new one.
    static func chosen(_ given: String?, trusted: Bool) -> UUID? {
        guard trusted, let given, given.utf8.count == 36 else { return nil }
        return UUID(uuidString: given)
    }
}

/// One access line: what the operator needs to find a request again, and nothing a client sent
/// in its path, query or body.
struct AccessLine {
    let method: String
    let route: String
    let status: Int
    let milliseconds: Double
    /// The request's id as written (`RequestTrace.idText`).
    let idText: String
    let caller: String
    /// A trusted proxy's own id when it was not taken (not a UUID): kept for the operator, bounded
    /// and stripped to visible ASCII. Anyone else's is not written at all.
    let proxyID: String?

    init(
        _ request: Request, context: LibraryRequestContext, status: HTTPResponse.Status, started: ContinuousClock.Instant,
        trace: RequestTrace, given: String?
    ) {
        method = request.method.rawValue
        // As the metrics name them: a path no route has is `unmatched`.
        route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        self.status = Int(status.code)
        let elapsed = ContinuousClock.now - started
        milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        idText = trace.idText
        caller = (trace.principal ?? .anonymous).actor
        proxyID = given.flatMap { Self.visible($0) }.flatMap { $0 == trace.idText ? nil : $0 }
    }

    /// The line's fields as log metadata.
    var metadata: Logger.Metadata {
        var fields: Logger.Metadata = [
            "method": .string(method), "route": .string(route), "status": .stringConvertible(status),
            "duration_ms": .string(Self.threeDecimals(milliseconds)), "request_id": .string(idText),
            "principal": .string(caller),
        ]
        if let proxyID { fields["proxy_request_id"] = .string(proxyID) }
        return fields
    }

    func write(to logger: Logger) {
        logger.info("request", metadata: metadata)
    }

    /// `value` with three decimals (`12.345`), as `%.3f` writes it for a duration, without
    /// Foundation's `String(format:)`, which costs more than the rest of the line.
    static func threeDecimals(_ value: Double) -> String {
        guard value.isFinite, value >= 0, value < 1e12 else { return "0.000" }
        let thousandths = Int64((value * 1_000).rounded())
        let fraction = String(thousandths % 1_000)
        return "\(thousandths / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// At most 64 visible ASCII characters of `text`; nil when none is left.
    static func visible(_ text: String) -> String? {
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { (0x21...0x7E).contains($0.value) }.prefix(64)))
        return kept.isEmpty ? nil : kept
    }
}

extension HTTPField.Name {
    /// The request's id, given by a trusted proxy or made here, and answered.
    static let xRequestID = Self("X-Request-ID")!
}
