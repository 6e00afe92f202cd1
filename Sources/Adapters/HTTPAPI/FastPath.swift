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

    /// A 200 with `body`, the generated handler's content type, and `headers`.
    static func json(_ body: [UInt8], _ headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
