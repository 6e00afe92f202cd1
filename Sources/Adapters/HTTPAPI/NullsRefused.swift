import APIContract
import Domain
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Refuses a JSON body that sends `null` where the contract says what the field holds: no schema
/// of the contract is nullable, and the generated code reads a `null` as a field left out, so
/// `{"displayName": null}` changed nothing and answered 200 (found by an outside walk). The
/// answer names the field and what it takes, as for any other value of the wrong kind. Only a
/// body with the bytes `null` in it (or not in UTF-8) is parsed a second time.
struct NullsRefused: ServerMiddleware {
    let contract: ContractShapes
    /// The most a body may hold; `AdmissionMiddleware` refused anything larger before this runs.
    let maxBytes: Int

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body, let shape = contract.operation(operationID)?.body else { return try await next(request, body, metadata) }
        let bytes = try await [UInt8](collecting: body, upTo: maxBytes)
        let nulls = Self.nulls(in: bytes, shape)
        if !nulls.isEmpty { throw TransportTexts.malformed(nulls) }
        return try await next(request, HTTPBody(bytes), metadata)
    }

    /// Each `null` in a JSON body at a field the contract describes, as the errors to answer
    /// (every one: a client told of one at a time would send the body again for each).
    static func nulls(in bytes: [UInt8], _ shape: ContractShapes.Shape) -> [FieldError] {
        // A body in UTF-16 or UTF-32 (which the decoder reads too) has zero bytes, and its `null`
        // other bytes than UTF-8's: it is always parsed again (found by an outside walk).
        guard mentionsNull(bytes) || bytes.contains(0),
            let json = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        else {
            return []
        }
        return shape.errors(in: json) { value, shape, path in
            guard value is NSNull, !path.isEmpty, let expected = shape.expectation else { return nil }
            return FieldError(path, expected)
        }
    }

    /// Whether the bytes `null` occur anywhere (in a text too): the only bodies worth parsing again.
    static func mentionsNull(_ bytes: [UInt8]) -> Bool {
        let word = Array("null".utf8)
        guard bytes.count >= word.count else { return false }
        return (0...(bytes.count - word.count)).contains { at in
            bytes[at] == word[0] && bytes[at + 1] == word[1] && bytes[at + 2] == word[2] && bytes[at + 3] == word[3]
        }
    }
}
