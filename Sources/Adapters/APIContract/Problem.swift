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
    public let errors: [FieldMessage]?

    /// One field at fault, with what is wrong said for a person.
    public struct FieldMessage: Encodable, Equatable, Sendable {
        public let field: String
        public let message: String
    }

    /// Problems echo what the client sent (an id, a field's value); these bounds keep the echo of
    /// a huge input small.
    static let maxDetail = 1_000
    static let maxErrors = 50

    /// A problem; its field errors are worded by `catalogue`.
    public init(
        status: Int, slug: String, title: String, detail: String? = nil, errors: [FieldError]? = nil,
        in catalogue: any MessageCatalogue = Catalogues.english
    ) {
        self.type = "urn:shelfmark:problem:\(slug)"
        self.title = title
        self.status = status
        self.detail = detail.map { Self.bounded($0, Self.maxDetail) }
        self.errors = errors.map {
            $0.prefix(Self.maxErrors).map {
                FieldMessage(field: Self.bounded($0.field, 200), message: Self.bounded(catalogue.text($0.problem), 300))
            }
        }
    }

    private static func bounded(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : text.prefix(limit) + "…"
    }

    public var schema: Components.Schemas.Problem {
        .init(
            _type: type, title: title, status: status, detail: detail, errors: errors?.map { .init(field: $0.field, message: $0.message) })
    }

    /// Invalid input: every field error, listed in the detail too.
    public static func validation(_ errors: [FieldError], in catalogue: any MessageCatalogue = Catalogues.english) -> Problem {
        let shown = Array(errors.prefix(maxErrors))
        let more = errors.count > maxErrors ? "; and \(errors.count - maxErrors) more" : ""
        return Problem(
            status: 400, slug: "validation", title: "Invalid input", detail: catalogue.text(.invalidInput(shown)) + more, errors: errors,
            in: catalogue)
    }

    /// The problem an error stands for, its detail worded by `catalogue`, or nil when it is not
    /// the caller's fault (a 500, whose cause is logged, not told).
    public static func of(_ error: any Error, in catalogue: any MessageCatalogue = Catalogues.english) -> Problem? {
        switch error {
        case let error as Problem: return error
        case let error as ServerError: return of(error, in: catalogue)
        case let error as DecodingError: return malformed(error)
        case let error as any ProblemConvertible: return error.problem
        case let error as InvalidInput: return validation(error.errors, in: catalogue)
        case let error as BookRefused:
            if case .invalid(let errors) = error.rejection { return validation(errors, in: catalogue) }
            return refusal(error, in: catalogue)
        case let error as any MessageConvertible: return refusal(error, in: catalogue)
        default: return nil
        }
    }

    /// A refusal, "not found", or trouble elsewhere: its status, type and title, and the
    /// catalogue's words for the detail.
    private static func refusal(_ error: any MessageConvertible, in catalogue: any MessageCatalogue) -> Problem? {
        guard let kind = ProblemKind(error) else { return nil }
        return Problem(
            status: kind.status, slug: kind.slug, title: kind.title, detail: catalogue.text(error.message),
            errors: kind.fields, in: catalogue)
    }

    private static func of(_ error: ServerError, in catalogue: any MessageCatalogue) -> Problem? {
        if let problem = of(error.underlyingError, in: catalogue) { return problem }
        let status = Int(error.httpStatus.code)
        guard (400..<500).contains(status) else { return nil }
        return Problem(status: status, slug: "bad-request", title: error.httpStatus.reasonPhrase, detail: error.causeDescription)
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
