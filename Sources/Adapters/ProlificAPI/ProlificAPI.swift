import Application
import Hummingbird

// The Prolific catalogue apps' REST API, as those apps use it: `/{key}/books`, `/{key}/books/{n}`
// and `/{key}/clean`, each with or without a trailing slash, bodies as JSON or as a form. The key
// is a capability (`AppKeyUseCases`): every request acts as the key's librarian, asked again at
// each request. Books are named by their small stable number (`CatalogueNumbering`). Every
// refusal is a use case's; this adapter only translates, and answers a refusal with a 4xx and
// `{"error": "..."}`.

/// How the Prolific API reads requests.
public struct ProlificSettings: Sendable {
    /// The largest request body read; a book is a few hundred bytes.
    public var maxBodyBytes = 64 << 10
    public init(maxBodyBytes: Int = 64 << 10) { self.maxBodyBytes = maxBodyBytes }
}

/// The Prolific API's entry points.
public enum ProlificAPI {
    /// Whether a request path is under a Prolific base URL: its first segment has a key's shape
    /// (24 lower-case hex characters). The key itself is checked by the responder.
    public static func isKeyPath(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        let first = path.dropFirst().prefix { $0 != "/" }
        return AppKeyText.isKeyShaped(first)
    }

    /// The responder answering every path under a key.
    public static func responder<Context: RequestContext>(
        library: Library, settings: ProlificSettings = ProlificSettings(), context: Context.Type = Context.self
    ) -> ProlificResponder<Context> {
        ProlificResponder(library: library, settings: settings)
    }
}
