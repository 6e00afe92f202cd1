import APIContract
import Application
import Domain
import Wording

/// The problems the HTTP transport itself answers (a wrong method, an unknown path, a body that
/// is not JSON, a malformed address), worded by the message catalogue (`RequestTrouble`). What is
/// wrong with a field is a `FieldProblem`, which the catalogue words too.
enum TransportTexts {
    /// The catalogue the transport answers in: the reader's language (`Accept-Language`).
    static var catalogue: Wording { Wording.reader }

    static func say(_ trouble: RequestTrouble) -> String { catalogue.text(.request(trouble)) }

    static func noSuchPath(_ path: String) -> String { say(.noSuchPath(path)) }
    static func methodNotAllowed(_ method: String, path: String, allowed: [String]) -> String {
        say(.methodNotAllowed(method: method, path: path, allowed: allowed))
    }
    static var malformedURL: String { say(.malformedURL) }
    static var notJSON: String { say(.notJSON) }
    static var valueUnreadable: String { say(.valueUnreadable) }
    static var notHTTP: String { say(.notHTTP) }
    static var headersTooLarge: String { say(.headersTooLarge) }
    static var notAnObject: String { say(.notAnObject) }
    static var bodyRequired: String { say(.bodyRequired) }
    static var unsupportedMediaType: String { say(.unsupportedMediaType) }
    static var notAcceptable: String { say(.notAcceptable) }
    static var unreadable: String { say(.unreadable) }
    static var storageUnavailable: String { say(.storageUnavailable) }
    static var badContentLength: String { say(.badContentLength) }
    static var bodyIncomplete: String { say(.bodyIncomplete) }
    static func bodyTooLarge(max: Int) -> String { say(.bodyTooLarge(max: max)) }
    static func bodyTooSlow(_ timeout: Duration) -> String { say(.bodyTooSlow(seconds: timeout.components.seconds)) }
    static func duplicateKey(_ key: String) -> String { say(.duplicateKey(key)) }
    static func contentTypes(_ count: Int) -> String { say(.contentTypes(count)) }
    static func notUTF8(_ charset: String) -> String { say(.notUTF8(charset: charset)) }

    /// The problem for input the transport could not decode, naming each field and what it expects.
    static func malformed(_ errors: [FieldError]) -> Problem {
        Problem(
            status: 400, slug: "malformed-request", title: "Malformed request", detail: Problem.validation(errors).detail, errors: errors)
    }

    /// The problem for a request the transport could not read at all, said in `detail`.
    static func malformed(_ detail: String, status: Int = 400) -> Problem {
        Problem(status: status, slug: "malformed-request", title: "Malformed request", detail: detail)
    }
}
