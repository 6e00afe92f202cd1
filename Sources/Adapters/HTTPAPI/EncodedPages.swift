import Application
import Domain
import Synchronization

/// The JSON of the catalogue pages answered last, kept by content: a page equal to one answered
/// before, in the same reader's language (an erased borrower is worded in it), is answered with the
/// same bytes. The use case still reads (or recalls) the page and redacts it for the caller, so
/// what is compared is exactly what would be encoded; encoding twenty books was a sixth of the
/// list's CPU (bench/PROFILE.md, change 23). At most `capacity` bytes of JSON are kept, oldest out first.
final class EncodedPages: Sendable {
    private struct Kept {
        let page: Page<CatalogueEntry>
        let language: Language
        let body: [UInt8]
    }

    private let kept = Mutex<[Kept]>([])
    private let capacity: Int

    init(capacity: Int = 4 << 20) { self.capacity = capacity }

    /// The JSON of `page` in `language`: kept from an equal page's, else `encode`d now (and kept).
    func body(_ page: Page<CatalogueEntry>, in language: Language, encode: () -> [UInt8]) -> [UInt8] {
        if let known = kept.withLock({ $0.last { $0.language == language && $0.page == page }?.body }) { return known }
        let body = encode()
        guard body.count <= capacity / 4 else { return body }
        kept.withLock { kept in
            var total = kept.reduce(body.count) { $0 + $1.body.count }
            while total > capacity, !kept.isEmpty { total -= kept.removeFirst().body.count }
            kept.append(Kept(page: page, language: language, body: body))
        }
        return body
    }
}
