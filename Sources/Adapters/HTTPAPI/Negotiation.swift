import APIContract
import HTTPTypes

/// The API answers JSON (and problem documents) only. A request whose `Accept` admits neither is
/// refused with a 406 before its operation runs: the generated code checks `Accept` only when it
/// writes the answer, after a POST had already changed the library.
enum Negotiation {
    /// Throws `NotAcceptable` unless every `Accept` header (or its absence) admits JSON.
    static func requireJSON(_ fields: HTTPFields) throws(NotAcceptable) {
        let ranges = fields[values: .accept].flatMap { $0.split(separator: ",") }
        guard !ranges.isEmpty, !ranges.contains(where: admitsJSON) else { return }
        throw NotAcceptable()
    }

    /// Whether one media range (`application/json;q=0.5`, `*/*`) admits a JSON answer.
    private static func admitsJSON(_ range: Substring) -> Bool {
        let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let type = parts.first, ["*/*", "application/*", "application/json"].contains(type) else {
            return false
        }
        let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
        return quality > 0
    }
}

/// The client accepts no answer the API can give.
struct NotAcceptable: ProblemConvertible {
    var problem: Problem {
        Problem(status: 406, slug: "not-acceptable", title: "Not Acceptable", detail: TransportTexts.notAcceptable)
    }
}
