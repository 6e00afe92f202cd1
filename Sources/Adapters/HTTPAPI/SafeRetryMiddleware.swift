import Application
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// Safe retries over HTTP: a request of an operation that creates something (`SafeRetries.operations`)
/// sent with an `Idempotency-Key` runs through `SafeRetries`, which answers a retry with the first
/// answer; without the header, or on another operation, nothing changes. It runs after admission,
/// so who calls and what they sent are known, and its answer is kept as the handler gave it.
struct SafeRetryMiddleware: RouterMiddleware {
    typealias Context = LibraryRequestContext
    let retries: SafeRetries

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let key = request.headers[.idempotencyKey], let endpoint = context.endpointPath,
            let operation = OperationRoutes.operation(request, endpoint: endpoint), SafeRetries.operations.contains(operation)
        else { return try await next(request, context) }
        var request = request
        let body = try await request.body.collect(upTo: .max)  // read already, within the limits, by admission
        request.body = .init(buffer: body)
        let retryable = RetryableRequest(key: key, method: request.method.rawValue, route: endpoint, body: Array(buffer: body))
        let answer = try await retries.execute(retryable, by: RequestScope.principal) { [request] in
            do {
                return try await Self.answer(try await next(request, context))
            } catch let error as ServerError where error.underlyingError is RequestAlreadyRecorded {
                throw error.underlyingError  // the use case's: SafeRetries answers it
            }
        }
        return Self.response(answer)
    }

    /// Headers that belong to one exchange, not to the answer.
    private static let exchangeHeaders: Set<HTTPField.Name> = [.contentLength, .date, .connection, .transferEncoding]

    /// The handler's response as a retry will get it again: status, headers and the whole body.
    private static func answer(_ response: Response) async throws -> RequestAnswer {
        let collected = Collected()
        try await response.body.write(Collector(collected: collected))
        let headers = response.headers.filter { !exchangeHeaders.contains($0.name) && $0.name.canonicalName != "x-request-id" }
        return RequestAnswer(
            status: Int(response.status.code), headers: headers.map { [$0.name.rawName, $0.value] }, body: Data(buffer: collected.buffer))
    }

    private static func response(_ answer: RequestAnswer) -> Response {
        var headers = HTTPFields()
        for pair in answer.headers where pair.count == 2 {
            if let name = HTTPField.Name(pair[0]) { headers.append(HTTPField(name: name, value: pair[1])) }
        }
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// A response body collected into one buffer (the answers kept are small JSON documents).
private final class Collected {
    var buffer = ByteBuffer()
}

private struct Collector: ResponseBodyWriter {
    let collected: Collected
    mutating func write(_ buffer: ByteBuffer) async throws { collected.buffer.writeImmutableBuffer(buffer) }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
}
