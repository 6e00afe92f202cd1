import APIContract
import Domain
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIRuntime
import Synchronization

/// Says what is wrong with a request the generated code could not decode, from what the contract
/// says the operation takes: each parameter that is missing or not of its kind (the choices of an
/// enumeration listed), the body field at fault and what it expects, a field the body may not
/// have, or a body that is not JSON. The runtime's own error names Swift types; it goes to the
/// log, never to the client. An operation without a body is never told about one.
struct RequestProblems: Sendable {
    let contract: ContractShapes

    /// The problem for a request the generated code could not decode or whose media types it
    /// cannot serve, or nil when the error came from the handler (whose own errors say what they are).
    func problem(_ error: ServerError, body bytes: ByteBuffer? = nil) -> Problem? {
        switch error.httpStatus {
        case .unsupportedMediaType:
            return Problem(
                status: 415, slug: "unsupported-media-type", title: "Unsupported Media Type", detail: TransportTexts.unsupportedMediaType)
        case .notAcceptable:
            return Problem(status: 406, slug: "not-acceptable", title: "Not Acceptable", detail: TransportTexts.notAcceptable)
        default: break
        }
        // A refusal of the contract's middlewares (`NullsRefused`) says itself.
        guard error.operationInput == nil, !(error.underlyingError is Problem), let operation = contract.operation(error.operationID)
        else { return nil }
        let parameters = parameterErrors(operation, request: error.request, pathParameters: error.requestMetadata.pathParameters)
        if !parameters.isEmpty { return TransportTexts.malformed(parameters) }
        guard let body = operation.body else { return TransportTexts.malformed(TransportTexts.unreadable) }
        guard Self.hasBody(error.request) else { return TransportTexts.malformed(TransportTexts.bodyRequired) }
        guard let decoding = error.underlyingError as? DecodingError else { return TransportTexts.malformed(TransportTexts.unreadable) }
        return bodyProblem(decoding, body: body, bytes: bytes)
    }

    /// Every parameter that is required and absent, or present and not of its kind.
    private func parameterErrors(_ operation: ContractShapes.Operation, request: HTTPRequest, pathParameters: [String: Substring])
        -> [FieldError]
    {
        let query = Self.queryItems(request.path ?? "")
        return operation.parameters.compactMap { parameter -> FieldError? in
            let value: String? =
                switch parameter.location {
                case "query": query.first { $0.name == parameter.name }?.value
                case "path": pathParameters[parameter.name].map(String.init)
                case "header": HTTPField.Name(parameter.name).flatMap { request.headerFields[$0] }
                default: nil
                }
            guard let value else { return parameter.required ? FieldError(parameter.name, .required) : nil }
            guard !parameter.shape.admits(value) else { return nil }
            return FieldError(parameter.name, parameter.shape.expectation ?? .required)
        }
    }

    /// The field of the body at fault, or the body itself when it is not a JSON object.
    private func bodyProblem(_ error: DecodingError, body: ContractShapes.Shape, bytes: ByteBuffer?) -> Problem {
        let (path, problem) = Self.located(error)
        guard let path else {
            guard case .dataCorrupted = error else { return TransportTexts.malformed(TransportTexts.notAnObject) }
            // The decoder says "not valid JSON" for valid JSON holding a number its field cannot
            // take (1.5 copies), without saying where: the contract finds it.
            guard let bytes, let json = try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView), options: .fragmentsAllowed)
            else {
                return TransportTexts.malformed(TransportTexts.notJSON)
            }
            guard let misfit = Self.misfit(json, body, at: "") else { return TransportTexts.malformed(TransportTexts.valueUnreadable) }
            return TransportTexts.malformed([misfit])
        }
        let keys = path.map { $0.intValue.map(String.init) ?? $0.stringValue }
        let field = Self.name(path)
        if problem == .required { return TransportTexts.malformed([FieldError(field, .required)]) }
        guard let shape = body.at(keys) else {
            // A key the contract does not list: a closed object refuses it.
            return TransportTexts.malformed([FieldError(field, .unknownField)])
        }
        return TransportTexts.malformed([FieldError(field, shape.expectation ?? problem ?? .wrongType(.json))])
    }

    /// The first number in `value` that its field, a whole number, cannot take.
    private static func misfit(_ value: Any, _ shape: ContractShapes.Shape, at path: String) -> FieldError? {
        shape.errors(in: value, at: path) { value, shape, path in
            guard case .integer = shape, let number = value as? NSNumber else { return nil }
            let double = number.doubleValue
            return double.rounded() == double && abs(double) < 9.2e18 ? nil : FieldError(path, .wrongType(.integer))
        }.first
    }

    /// Where a decoding error happened (nil at the root) and what it already says.
    private static func located(_ error: DecodingError) -> ([any CodingKey]?, FieldProblem?) {
        switch error {
        case .keyNotFound(let key, let context): return (context.codingPath + [key], .required)
        case .valueNotFound(_, let context): return (context.codingPath.isEmpty ? nil : context.codingPath, .required)
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return (context.codingPath.isEmpty ? nil : context.codingPath, nil)
        @unknown default: return (nil, nil)
        }
    }

    /// `authors[1]`, `address.city`: the field as a client names it.
    private static func name(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
    }

    /// The query's items, percent-decoded as a form is (`+` is a space).
    static func queryItems(_ target: String) -> [(name: String, value: String)] {
        guard let mark = target.firstIndex(of: "?") else { return [] }
        return target[target.index(after: mark)...].split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    /// True when the request says it sends a body.
    static func hasBody(_ request: HTTPRequest) -> Bool {
        if let length = request.headerFields[.contentLength] { return Int(length).map { $0 > 0 } ?? true }
        return request.headerFields[.transferEncoding] != nil
    }
}

/// The body `AdmissionMiddleware` read, kept for `ProblemMiddleware`, which binds one per request:
/// the body the generated code decoded is gone by the time its error arrives.
final class ReceivedBody: Sendable {
    @TaskLocal static var current: ReceivedBody?
    private let bytes = Mutex<ByteBuffer?>(nil)

    func keep(_ buffer: ByteBuffer) { bytes.withLock { $0 = buffer } }
    var buffer: ByteBuffer? { bytes.withLock { $0 } }
}
