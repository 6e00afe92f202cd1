extension English {
    /// Why the HTTP transport could not take a request.
    func request(_ trouble: RequestTrouble) -> String {
        switch trouble {
        case .noSuchPath(let path): "there is nothing at \(path.prefix(200)); the API's paths are listed in /openapi.yaml"
        case .methodNotAllowed(let method, let path, let allowed):
            "\(path.prefix(200)) does not answer \(method.prefix(20)); it answers \(allowed.joined(separator: ", "))"
        case .malformedURL:
            "the address is not a valid URL: write characters other than ASCII letters and digits percent-encoded as UTF-8 (é as %C3%A9)"
        case .notJSON: "the body is not valid JSON"
        case .valueUnreadable: "a value in the body could not be read (a number too large for its field, perhaps)"
        case .notHTTP: "the request is not valid HTTP/1.1"
        case .headersTooLarge: "the request's headers are too large"
        case .notAnObject: "the body must be a JSON object"
        case .bodyRequired: "this request needs a JSON body"
        case .unsupportedMediaType: "the body must be sent as application/json"
        case .notAcceptable: "the answer can only be sent as application/json or application/problem+json"
        case .unreadable: "the request could not be read"
        case .storageUnavailable: "the database does not answer"
        case .badContentLength: "the Content-Length header is not a number of bytes"
        case .bodyIncomplete: "the request body could not be read completely"
        case .bodyTooLarge(let max): "the request body is larger than \(max) bytes"
        case .bodyTooSlow(let seconds): "the request body did not arrive within \(seconds) \(seconds == 1 ? "second" : "seconds")"
        case .duplicateKey(let key): "the JSON body names '\(key.prefix(100))' twice in one object; send each field once"
        case .contractMissing: "the OpenAPI document is not bundled with this build"
        case .noSuchPage: "there is no page at this address: it may have been removed, or the link may be mistyped"
        case .notAForm: "the page sent something that is not a form; reload the page and try again"
        case .formTooLarge(let max):
            "the form is larger than the \(max / 1024) KB a form may be; shorten the longest field and send it again"
        case .staleForm:
            "this form is out of date (you may have logged in or out in another tab since it was opened); reload the page and send it again"
        }
    }
}
