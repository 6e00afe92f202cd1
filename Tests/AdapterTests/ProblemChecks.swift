import Foundation
import Hummingbird
import HummingbirdTesting

@testable import HTTPAPI

/// What every error answer must be: an RFC 9457 problem document whose `detail` and field
/// messages a person can read, with no trace of the code that wrote them.
enum ProblemChecks {
    /// Text that only a program writes: Swift's and the runtime's descriptions of errors and values.
    static let programText = [
        "Cannot initialize", "Swift.", "Optional(", "errno", "DecodingError", "EncodingError", "is the body valid JSON",
        "Additional properties", "keyed decoding container", "underlying error", "CodingKeys", "Dictionary<", "Array<",
        "The given data", "Failed to convert",
    ]

    /// Two or more capitalised words run together, as Swift names types (`BookSort`, `SortPayload`).
    static func typeNames(in text: String) -> [String] {
        text.matches(of: /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/).map { String(text[$0.range]) }
    }

    /// What is wrong with `response` as the answer `expected` of `operation`.
    static func failures(_ response: Answer, expected: Int, operation: ContractShapes.Operation) -> [String] {
        let label = "\(operation.id) \(expected)"
        guard Int(response.status.code) == expected else {
            return ["\(label): not provoked, the answer was \(response.status.code) \(response.text.prefix(300))"]
        }
        guard response.headers[.contentType] == "application/problem+json",
            let problem = try? JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any]
        else {
            return ["\(label): not a problem document: \(response.headers[.contentType] ?? "no content type") \(response.text.prefix(300))"]
        }
        var failures: [String] = []
        if (problem["type"] as? String)?.hasPrefix("urn:shelfmark:problem:") != true {
            failures.append("\(label): type \(problem["type"] ?? "missing")")
        }
        if problem["status"] as? Int != expected { failures.append("\(label): status \(problem["status"] ?? "missing") in the document") }
        if (problem["title"] as? String)?.isEmpty != false { failures.append("\(label): no title") }
        for text in readable(problem) {
            failures += unreadable(text).map { "\(label): \($0) in \"\(text)\"" }
            if operation.body == nil, text.lowercased().contains(/\bbody\b/) {
                failures.append("\(label): speaks of a body to a request without one: \"\(text)\"")
            }
        }
        return failures
    }

    /// `detail` and every field error's message and name.
    static func readable(_ problem: [String: Any]) -> [String] {
        let errors = problem["errors"] as? [[String: Any]] ?? []
        return [problem["detail"] as? String].compactMap { $0 }
            + errors.flatMap { [$0["message"], $0["field"]].compactMap { $0 as? String } }
    }

    /// The program text found in `text`.
    static func unreadable(_ text: String) -> [String] {
        programText.filter { text.contains($0) } + typeNames(in: text).map { "the name \($0)" }
    }

    private static func hasRetryAfter(_ response: Answer) -> Bool {
        Int(response.headers[.retryAfter] ?? "").map { $0 >= 1 } == true
    }

    /// Answers among `seen` that lack a header their status needs.
    static func headerFailures(_ seen: [(request: String, body: Bool, response: Answer)]) -> [String] {
        seen.flatMap { request, _, response -> [String] in
            switch response.status.code {
            case 201 where response.headers[.location] == nil: ["\(request): 201 without Location"]
            case 503 where !hasRetryAfter(response), 429 where !hasRetryAfter(response):
                ["\(request): \(response.status.code) without Retry-After in whole seconds"]
            case 401 where response.headers[.wwwAuthenticate] == nil: ["\(request): 401 without WWW-Authenticate"]
            case 405 where response.headers[.allow] == nil: ["\(request): 405 without Allow"]
            default: []
            }
        }
    }
}
