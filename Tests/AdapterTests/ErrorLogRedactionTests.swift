import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import HTTPAPI

/// An unexpected failure of an operation is logged without the request it failed on (found by an
/// outside test: a 500's error line held the caller's bearer token and the decoded body).
@Suite("Error log redaction")
struct ErrorLogRedactionTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the store broke" }
    }

    struct Input: Sendable {
        let password = "Hidden-Pass1"
    }

    @Test func aGeneratedCodeErrorIsLoggedAsItsOperationAndTheErrorBeneathIt() throws {
        var request = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/api/v1/me/password")
        request.headerFields[.authorization] = "Bearer smk_secret-token"
        let wrapped = ServerError(
            operationID: "changePassword", request: request, requestBody: HTTPBody("{\"currentPassword\":\"Hidden-Pass1\"}"),
            requestMetadata: ServerRequestMetadata(), operationInput: Input(), causeDescription: "handler threw", underlyingError: Broken())
        let twice = ServerError(
            operationID: "outer", request: request, requestBody: nil, requestMetadata: ServerRequestMetadata(),
            causeDescription: "middleware threw", underlyingError: wrapped)
        for error in [wrapped, twice] {
            let metadata = LoggedError.metadata(error)
            let text = "\(metadata)"
            #expect(metadata["error"] == "the store broke", "\(text)")
            for secret in ["smk_secret-token", "Hidden-Pass1", "Bearer"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        }
        #expect(LoggedError.metadata(wrapped)["operation"] == "changePassword")
    }
}
