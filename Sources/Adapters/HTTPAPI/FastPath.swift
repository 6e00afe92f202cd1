import HTTPTypes
import Hummingbird
import NIOCore

/// What the fast paths (`BookListFastPath`, `BookShowFastPath`) share: the `Accept` they answer,
/// and their answer as the generated handler writes its JSON.
enum FastPath {
    /// No `Accept`, or one that is exactly JSON or anything.
    static func acceptsJSON(_ accept: String?) -> Bool {
        guard let accept else { return true }
        return accept == "application/json" || accept == "*/*"
    }

    /// Whether the request has no `Content-Type` and no body. The fast paths stand right after
    /// authentication, in front of the middlewares that refuse or read those (`OneContentType`,
    /// `AdmissionMiddleware`); those middlewares' other checks pass for any request a fast path
    /// takes (a plain `GET` of a route anyone may read, never rated, with no `%` to decode, not one
    /// `SafeRetryMiddleware` keeps), so only a request with neither goes the fast way.
    static func bodiless(_ headers: HTTPFields) -> Bool {
        guard headers[.contentType] == nil, headers[.transferEncoding] == nil else { return false }
        // Read as admission reads it: repeated fields joined ("0, 0" is no length, and refused there).
        return headers[.contentLength].map { $0 == "0" } ?? true
    }

    /// A 200 with `body`, the generated handler's content type, and `headers`.
    static func json(_ body: [UInt8], _ headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
