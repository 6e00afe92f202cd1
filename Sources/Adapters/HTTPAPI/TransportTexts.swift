import APIContract
import Application
import Domain

/// The words of the problems the HTTP transport itself answers (a wrong method, an unknown path,
/// a body that is not JSON, a malformed address), kept together so they can move into the
/// message catalogue with the others. What is wrong with a field is a `FieldProblem`, which the
/// catalogue words already.
enum TransportTexts {
    static func noSuchPath(_ path: String) -> String {
        "there is nothing at \(path.prefix(200)); the API's paths are listed in /openapi.yaml"
    }

    static func methodNotAllowed(_ method: String, path: String, allowed: [String]) -> String {
        "\(path.prefix(200)) does not answer \(method.prefix(20)); it answers \(allowed.joined(separator: ", "))"
    }

    static let malformedURL =
        "the address is not a valid URL: write characters other than ASCII letters and digits percent-encoded as UTF-8 (é as %C3%A9)"
    static let notJSON = "the body is not valid JSON"
    static let valueUnreadable = "a value in the body could not be read (a number too large for its field, perhaps)"
    static let notHTTP = "the request is not valid HTTP/1.1"
    static let headersTooLarge = "the request's headers are too large"
    static let notAnObject = "the body must be a JSON object"
    static let bodyRequired = "this request needs a JSON body"
    static let unsupportedMediaType = "the body must be sent as application/json"
    static let notAcceptable = "the answer can only be sent as application/json or application/problem+json"
    static let unreadable = Problem.unreadable
    static let storageUnavailable = "the database does not answer"
    static let badContentLength = "the Content-Length header is not a number of bytes"
    static let bodyIncomplete = "the request body could not be read completely"
    static func bodyTooLarge(max: Int) -> String { "the request body is larger than \(max) bytes" }
    static func bodyTooSlow(_ timeout: Duration) -> String {
        "the request body did not arrive within \(timeout.components.seconds) seconds"
    }
    static func duplicateKey(_ key: String) -> String {
        "the JSON body names '\(key.prefix(100))' twice in one object; send each field once"
    }

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
