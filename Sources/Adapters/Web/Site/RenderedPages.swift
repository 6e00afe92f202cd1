import Domain
import Hummingbird
import Synchronization

/// The HTML of pages shown to visitors who are not logged in, kept by what the page showed: a
/// view equal to one rendered before, in the same template and language, is answered with the same
/// HTML. Rendering is a function of the view alone (each language's templates are fixed when the
/// site starts), so nothing kept can be out of date: the page's data is read and its view built
/// anew for every request; only Mustache's walk over the template, a third of the catalogue page's
/// CPU, is skipped (bench/PROFILE.md, change 24).
///
/// A page is kept the second time its view is rendered: a view asked only once is not worth the
/// memory, and an address made up for every request cannot push out the pages visitors come back to.
///
/// The form token differs for every visitor: views are kept with a marker in its place, and the
/// visitor's own token goes where the marker is. A logged-in member's pages are never kept: their
/// names and loans stay in memory no longer than their request. At most `capacity` bytes of HTML
/// are kept, oldest out first.
final class RenderedPages: Sendable {
    /// A template, a language and the view it was filled with, its hash computed once.
    /// Sendable: the view it boxes is (the initializer takes only a `Sendable` one).
    struct Key: Hashable, @unchecked Sendable {
        let template: String
        let language: Language
        let view: AnyHashable
        private let hash: Int

        init(template: String, language: Language, view: some Hashable & Sendable) {
            self.template = template
            self.language = language
            self.view = AnyHashable(view)
            var hasher = Hasher()
            hasher.combine(template)
            hasher.combine(language)
            hasher.combine(view)
            hash = hasher.finalize()
        }

        static func == (left: Key, right: Key) -> Bool {
            left.hash == right.hash && left.template == right.template && left.language == right.language && left.view == right.view
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// What the form token is rendered as in a kept page: private-use characters, which HTML
    /// escaping leaves alone, around a random number drawn when the process starts, so no view's
    /// text (a title, a search typed) can hold it and have a visitor's token written in its place.
    static let tokenMarker = "\u{E000}form-token-\(UInt64.random(in: .min ... .max))-\(UInt64.random(in: .min ... .max))\u{E001}"

    private struct Kept: Sendable {
        /// The page cut at every form token.
        let parts: [ByteBuffer]
        var size: Int { parts.reduce(0) { $0 + $1.readableBytes } }
        /// What keeping it costs: the page's buffers (whose storage is rounded up), and its view
        /// (whose texts are in the page) as much as the page.
        var weight: Int { parts.reduce(size) { $0 + $1.capacity } }
    }

    private struct State: Sendable {
        var pages: [Key: Kept] = [:]
        var order: [Key] = []
        var size = 0
        /// The hashes of views rendered once and not kept: a page is kept the second time its view
        /// is rendered, so views asked once (a query string made up for each request) never push
        /// out the pages visitors come back to. Forgotten all at once at `seenLimit`.
        var seen: Set<Int> = []
    }

    /// How many views rendered once are remembered.
    static let seenLimit = 4_096

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 4 << 20) { self.capacity = capacity }

    /// The page for `key`, with `token` where the form token goes: kept from an equal view's, else
    /// `render`ed now with `tokenMarker` as the token (and kept, if an equal view was rendered before).
    func page(_ key: Key, token: () -> String, render: () -> String) -> ByteBuffer {
        let kept = state.withLock { $0.pages[key] } ?? keep(key, render())
        guard kept.parts.count > 1 else { return kept.parts.first ?? ByteBuffer() }
        let token = token()
        var page = ByteBuffer()
        page.reserveCapacity(kept.size + (kept.parts.count - 1) * token.utf8.count)
        for (index, part) in kept.parts.enumerated() {
            if index > 0 { page.writeString(token) }
            page.writeImmutableBuffer(part)
        }
        return page
    }

    private func keep(_ key: Key, _ html: String) -> Kept {
        let kept = Kept(parts: html.split(separator: Self.tokenMarker, omittingEmptySubsequences: false).map { ByteBuffer(substring: $0) })
        let size = kept.weight
        guard size <= capacity / 8 else { return kept }
        state.withLock { state in
            guard state.pages[key] == nil else { return }
            guard state.seen.remove(key.hashValue) != nil else {
                if state.seen.count >= Self.seenLimit { state.seen.removeAll(keepingCapacity: true) }
                state.seen.insert(key.hashValue)
                return
            }
            while state.size + size > capacity, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.size -= state.pages.removeValue(forKey: oldest)?.weight ?? 0
            }
            state.pages[key] = kept
            state.order.append(key)
            state.size += size
        }
        return kept
    }

    /// How many pages are kept, and their weight (for tests).
    var count: (pages: Int, weight: Int) { state.withLock { ($0.pages.count, $0.size) } }
}
