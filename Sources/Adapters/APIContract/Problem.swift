import Application
import Domain
import Foundation
import OpenAPIRuntime

/// An error an adapter defines that stands for a problem of its own (the HTTP server's "busy").
public protocol ProblemConvertible: Error {
    /// The problem document it is answered with.
    var problem: Problem { get }
}

/// An RFC 9457 problem document with a stable `type` (`urn:shelfmark:problem:<slug>`).
public struct Problem: Error, Encodable, Equatable, Sendable {
    /// `urn:shelfmark:problem:<slug>`.
    public let type: String
    /// A short summary of the kind of problem.
    public let title: String
    /// The HTTP status it stands for.
    public let status: Int
    /// This occurrence, said for a person.
    public let detail: String?
    /// The fields at fault, when the input was.
    public let errors: [FieldError]?

    /// Problems echo what the client sent (an id, a field's value); these bounds keep the echo of
    /// a huge input small.
    static let maxDetail = 1_000
    static let maxErrors = 50

    public init(status: Int, slug: String, title: String, detail: String? = nil, errors: [FieldError]? = nil) {
        self.type = "urn:shelfmark:problem:\(slug)"
        self.title = title
        self.status = status
        self.detail = detail.map { Self.bounded($0, Self.maxDetail) }
        self.errors = errors.map {
            $0.prefix(Self.maxErrors).map { FieldError(Self.bounded($0.field, 200), Self.bounded($0.message, 300)) }
        }
    }

    private static func bounded(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : text.prefix(limit) + "…"
    }

    public var schema: Components.Schemas.Problem {
        .init(
            _type: type, title: title, status: status, detail: detail, errors: errors?.map { .init(field: $0.field, message: $0.message) })
    }

    public static func validation(_ errors: [FieldError]) -> Problem {
        let more = errors.count > maxErrors ? "; and \(errors.count - maxErrors) more" : ""
        return Problem(
            status: 400, slug: "validation", title: "Invalid input",
            detail: errors.prefix(maxErrors).map(\.description).joined(separator: "; ") + more, errors: errors)
    }

    /// The problem an error stands for, or nil when it is not the caller's fault (a 500).
    public static func of(_ error: any Error) -> Problem? {
        switch error {
        case let error as ServerError: return of(error)
        case let error as BookRefused: return of(error)
        case let error as NotFound: return Problem(status: 404, slug: "not-found", title: "Not found", detail: error.description)
        case let error as InvalidInput: return validation(error.errors)
        case let error as TooMuchContention:
            return Problem(status: 503, slug: "contention", title: "Busy", detail: error.description)
        case let error as DecodingError: return malformed(error)
        case let error as Unauthenticated:
            return Problem(status: 401, slug: "unauthenticated", title: "Unauthorized", detail: error.description)
        case let error as InvalidCredentials:
            return Problem(status: 401, slug: "invalid-credentials", title: "Unauthorized", detail: error.description)
        case let error as Forbidden: return Problem(status: 403, slug: "forbidden", title: "Forbidden", detail: error.description)
        case let error as EmailTaken:
            return Problem(
                status: 409, slug: "email-taken", title: "Conflict", detail: error.description,
                errors: [FieldError("email", "is already registered")])
        case let error as any ProblemConvertible: return error.problem
        case let error as SearchUnavailable:
            return Problem(status: 503, slug: "search-unavailable", title: "Service Unavailable", detail: error.description)
        case let error as LoanRefused: return of(error)
        case let error as LoginThrottled:
            return Problem(status: 429, slug: "login-throttled", title: "Too Many Requests", detail: error.description)
        case let error as TooManyAttempts:
            return Problem(status: 429, slug: "too-many-attempts", title: "Too Many Requests", detail: error.description)
        case let error as Problem: return error
        default: return nil
        }
    }

    private static func of(_ error: ServerError) -> Problem? {
        if let problem = of(error.underlyingError) { return problem }
        let status = Int(error.httpStatus.code)
        guard (400..<500).contains(status) else { return nil }
        return Problem(status: status, slug: "bad-request", title: error.httpStatus.reasonPhrase, detail: error.causeDescription)
    }

    private static func of(_ refused: BookRefused) -> Problem {
        switch refused.rejection {
        case .invalid(let errors): validation(errors)
        case .notInCatalogue: Problem(status: 404, slug: "not-found", title: "Not found", detail: refused.description)
        case .alreadyInCatalogue, .copiesOnLoan, .fewerCopiesThanOnLoan, .noCopyAvailable:
            Problem(status: 409, slug: "conflict", title: "Conflicts with the library's state", detail: refused.description)
        }
    }

    private static func of(_ refused: LoanRefused) -> Problem {
        switch refused.rejection {
        case .loan(.noSuchLoan): Problem(status: 404, slug: "not-found", title: "Not found", detail: refused.description)
        case .loan(.alreadyReturned), .loan(.renewalLimitReached), .loan(.overdueCannotBeRenewed), .loan(.idInUse), .patron:
            Problem(status: 409, slug: "loan-refused", title: "Loan refused", detail: refused.description)
        }
    }

    /// A body that is not JSON, or not of the documented shape, with the field at fault.
    private static func malformed(_ error: DecodingError) -> Problem {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
        }
        let field: FieldError
        switch error {
        case .keyNotFound(let key, let context): field = FieldError(path(context.codingPath + [key]), "is required")
        case .typeMismatch(let type, let context): field = FieldError(path(context.codingPath), "must be of type \(jsonType(type))")
        case .valueNotFound(_, let context): field = FieldError(path(context.codingPath), "must not be null")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return Problem(
                status: 400, slug: "malformed-request", title: "Malformed request",
                detail: "the request could not be read (is the body valid JSON?): \(context.debugDescription)")
        case .dataCorrupted(let context): field = FieldError(path(context.codingPath), context.debugDescription)
        @unknown default: field = FieldError("body", "is not valid")
        }
        return Problem(status: 400, slug: "malformed-request", title: "Malformed request", detail: field.description, errors: [field])
    }

    private static func jsonType(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type, is Int64.Type, is Double.Type: "number"
        case is Bool.Type: "boolean"
        default: String(describing: type).hasPrefix("Array") ? "array" : "object"
        }
    }
}
