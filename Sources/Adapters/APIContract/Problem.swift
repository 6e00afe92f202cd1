import Application
import Domain
import Foundation
import OpenAPIRuntime
import Wording

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

    /// A problem; its title in the reader's language (`title` is the English one, for a type the
    /// title table does not know), its field errors worded by `catalogue`.
    public init(
        status: Int, slug: String, title: String, detail: String? = nil, errors: [FieldError]? = nil,
        in catalogue: any MessageCatalogue = Wording.reader
    ) {
        self.type = "urn:shelfmark:problem:\(slug)"
        self.title = ProblemTitles.title(slug, or: title)
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
    public static func validation(_ errors: [FieldError], in catalogue: any MessageCatalogue = Wording.reader) -> Problem {
        let shown = Array(errors.prefix(maxErrors))
        let more = errors.count > maxErrors ? t("problem.andMore", Formats(Reader.language).number(errors.count - maxErrors)) : ""
        return Problem(
            status: 400, slug: "validation", title: "Invalid input", detail: catalogue.text(.invalidInput(shown)) + more, errors: errors,
            in: catalogue)
    }

    /// The problem an error stands for, its detail worded by `catalogue`, or nil when it is not
    /// the caller's fault (a 500, whose cause is logged, not told).
    public static func of(_ error: any Error, in catalogue: any MessageCatalogue = Wording.reader) -> Problem? {
        switch error {
        case let error as Problem: return error
        case let error as ServerError: return of(error, in: catalogue)
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

    /// An error of the OpenAPI runtime: its cause's problem, or for a request it could not read
    /// a plain 4xx (the HTTP adapter says which field and why; the runtime's own words name Swift
    /// types and go to the log, never here). A `DecodingError` of the application's own data (a
    /// stored event, an upstream answer) is no fault of the caller: it is a 500, as any other.
    private static func of(_ error: ServerError, in catalogue: any MessageCatalogue) -> Problem? {
        if let problem = of(error.underlyingError, in: catalogue) { return problem }
        let status = Int(error.httpStatus.code)
        guard (400..<500).contains(status) else { return nil }
        return Problem(status: status, slug: "malformed-request", title: "Malformed request", detail: unreadable)
    }

    /// What a request the server could not read is told when nothing more precise is known.
    public static var unreadable: String { Wording.reader.text(.request(.unreadable)) }
}
