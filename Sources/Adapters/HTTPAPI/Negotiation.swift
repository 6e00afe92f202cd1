import APIContract
import HTTPTypes

/// The API answers JSON (and problem documents), and a library card's barcode as SVG. A request
/// whose `Accept` admits none of what its operation answers is refused with a 406 before the
/// operation runs: the generated code checks `Accept` only when it writes the answer, after a POST
/// had already changed the library.
enum Negotiation {
    /// The routes that answer something else than JSON, with the media type they answer.
    static let otherTypes = ["GET /api/v1/me/card": "image/svg+xml"]

    /// Throws `NotAcceptable` unless the `Accept` headers (or their absence) admit what `route`
    /// (`GET /api/v1/me`) answers: JSON, or the type `otherTypes` gives it.
    static func require(_ fields: HTTPFields, route: String?) throws(NotAcceptable) {
        try require(fields, admitting: route.flatMap { otherTypes[$0] } ?? "application/json")
    }

    private static func require(_ fields: HTTPFields, admitting mediaType: String) throws(NotAcceptable) {
        let ranges = fields[values: .accept].flatMap { $0.split(separator: ",") }
        guard !ranges.isEmpty, !ranges.contains(where: { admits($0, mediaType) }) else { return }
        throw NotAcceptable()
    }

    /// Whether one media range (`application/json;q=0.5`, `*/*`) admits an answer of `mediaType`.
    private static func admits(_ range: Substring, _ mediaType: String) -> Bool {
        let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let family = String(mediaType.prefix { $0 != "/" }) + "/*"
        guard let type = parts.first, ["*/*", family, mediaType].contains(type) else {
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
