import Application
import Foundation
import Hummingbird

extension Site {
    /// Where the submitted form asks to go back to (its `back`, a page of this site), else `fallback`.
    func back(or fallback: String) -> String { Redirect.local(form["back"], or: fallback) }

    /// Runs a logged-in user's `action`, then redirects to `path` with what it did, or with the
    /// refusal in the catalogue's words (an alert). What is not theirs, or not there, is a 404 page.
    func act(to path: String, _ action: () async throws -> String) async throws -> Response {
        _ = try visit.requireUser()
        do {
            return Redirect.see(path, flash: try await action())
        } catch let error as NotFound {
            throw error
        } catch {
            guard !(error is Unauthenticated), let text = Words.say(error: error) else { throw error }
            return Redirect.see(path, flash: text, refused: true)
        }
    }
}

/// A path parameter as it was sent (ids of notices hold `:` and `@`, so links encode them).
enum PathID {
    /// `id` made safe for one path segment.
    static func encode(_ id: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }

    /// The parameter `name` of the request, percent-decoded.
    static func decode(_ name: String, _ context: some RequestContext) throws -> String {
        let raw = try context.parameters.require(name)
        return raw.removingPercentEncoding ?? raw
    }
}
