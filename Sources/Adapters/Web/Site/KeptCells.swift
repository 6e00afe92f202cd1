import Application
import Domain
import Synchronization
import Wording

/// The book cells of the catalogue pages shown last, kept with the entries they were made from: a
/// page of equal entries, in the same language, gets the same cells. A cell is a function of its
/// entry and the language alone, and its texts (plural forms, numbers, the cover's description)
/// were a sixth of the catalogue page's CPU once a visitor's page itself was kept (bench/PROFILE.md,
/// change 28). Comparing twenty entries costs a few microseconds; a changed book, count or language
/// makes new cells, so nothing can be stale. Only entries that name no borrower are kept (a
/// visitor's always, a member's unless they borrowed a book on the page last, a librarian's unless
/// a book on it was borrowed): no one's name stays in memory. At most `capacity` lists, oldest out
/// first (each holds its entries, descriptions included: 16 pages of long descriptions are a few MiB).
final class KeptCells: Sendable {
    private struct Kept: Sendable {
        let entries: [CatalogueEntry]
        let language: Language
        let cells: [BookCell]
    }

    private let kept = Mutex<[Kept]>([])
    private let capacity: Int

    init(capacity: Int = 16) { self.capacity = capacity }

    /// The cells of `entries` in `language`: kept from equal entries', else made now (and kept,
    /// unless one of them names a borrower).
    func cells(_ entries: [CatalogueEntry], in language: Language) -> [BookCell] {
        // Cells are worded in `language`, whatever the caller's reader: what is kept under it is in it.
        let make = { Reader.$language.withValue(language) { entries.map(BookCell.init) } }
        guard capacity > 0, entries.allSatisfy({ $0.lastCheckout?.name == nil }) else { return make() }
        if let known = kept.withLock({ $0.last { $0.language == language && $0.entries == entries }?.cells }) { return known }
        let cells = make()
        kept.withLock { kept in
            if kept.count >= capacity { kept.removeFirst(kept.count - capacity + 1) }
            kept.append(Kept(entries: entries, language: language, cells: cells))
        }
        return cells
    }

    /// How many lists are kept (for tests).
    var count: Int { kept.withLock { $0.count } }
}
