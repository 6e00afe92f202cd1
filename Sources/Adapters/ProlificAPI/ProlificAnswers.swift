import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// A request this adapter cannot read, said in the catalogue's words (the apps' own terms where
/// the API's words would name what the apps never send: `AppRequestProblem`).
enum ProlificRequestRefused: MessageConvertible, Equatable {
    case notJSON, notAnObject, formMalformed, unsupportedMediaType
    case duplicateKey(String)
    case formNamesTwice(String)
    case tooLarge(max: Int)
    case noSuchPath(String)
    case methodNotAllowed(method: String, path: String, allowed: [String])

    var message: Message {
        switch self {
        case .notJSON: .request(.notJSON)
        case .notAnObject: .request(.notAnObject)
        case .formMalformed: .appRequest(.formMalformed)
        case .unsupportedMediaType: .appRequest(.neitherJSONNorForm)
        case .duplicateKey(let key): .request(.duplicateKey(key))
        case .formNamesTwice(let name): .appRequest(.formNamesTwice(name))
        case .tooLarge(let max): .request(.bodyTooLarge(max: max))
        case .noSuchPath(let path): .appRequest(.noSuchRoute(path: path))
        case .methodNotAllowed(let method, let path, let allowed): .request(.methodNotAllowed(method: method, path: path, allowed: allowed))
        }
    }
}

/// The answers: JSON bodies, and `{"error": "..."}` with the status a refusal's message calls for.
enum ProlificAnswer {
    /// The apps' reader's language: their `Accept-Language` (the iOS app speaks English and French).
    static var catalogue: Wording { Wording.reader }

    /// A JSON answer (slashes escaped, as the original service wrote them; keys sorted).
    static func json(_ value: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The answer to an error: its message in `{"error": ...}`, a 4xx for every refusal.
    static func error(_ error: any Error) -> Response {
        guard let convertible = error as? any MessageConvertible else {
            return json(["error": catalogue.text(Message.serverFailed)], status: .internalServerError)
        }
        var message = convertible.message
        // The apps' names for the catalogue's fields: one `author` text, one `categories` text.
        if case .invalidInput(let errors) = message { message = .invalidInput(errors.map(appField)) }
        var headers: HTTPFields = [:]
        if case .request(.methodNotAllowed(_, _, let allowed)) = message { headers[.allow] = allowed.joined(separator: ", ") }
        if let limited = error as? RateLimited { headers[.retryAfter] = String(max(1, Int(limited.retryAfter.rounded(.up)))) }
        return json(["error": catalogue.text(message)], status: status(message), headers: headers)
    }

    /// A field error named as the apps name the field (`authors[2]` is their `author`, a walk-in
    /// borrower's name their `lastCheckedOutBy`).
    static func appField(_ error: FieldError) -> FieldError {
        let name = error.field.prefix { $0 != "[" }
        let renamed = ["authors": "author", "borrowerName": "lastCheckedOutBy"][String(name)] ?? String(name)
        return renamed == error.field ? error : FieldError(renamed, error.problem)
    }

    /// The status a message calls for: what was not found is 404, what cannot be read 400, what a
    /// rule refused 409 (422 for field errors would confuse the apps no more than 400 does).
    static func status(_ message: Message) -> HTTPResponse.Status {
        switch message {
        case .notFound, .appKey, .request(.noSuchPath), .appRequest(.noBookNumbered), .appRequest(.noSuchRoute): .notFound
        case .request(.unsupportedMediaType), .appRequest(.neitherJSONNorForm): .unsupportedMediaType
        case .invalidInput, .request(.notJSON), .request(.notAnObject), .request(.notAForm), .request(.duplicateKey),
            .request(.valueUnreadable), .appRequest:
            .badRequest
        case .request(.bodyTooLarge): .contentTooLarge
        case .request(.methodNotAllowed): .methodNotAllowed
        case .unauthenticated: .unauthorized
        case .forbidden: .forbidden
        case .contention, .serverBusy, .storeUnreachable: .serviceUnavailable
        case .rateLimited, .tooManyAttempts, .loginThrottled: .tooManyRequests
        case .serverFailed, .upstreamUnavailable: .internalServerError
        default: .conflict
        }
    }
}
