import Application
import Domain
import GRDB

extension CatalogueProjection {
    func makeFold() -> (any ProjectionFold)? { CatalogueFold() }
}

/// The catalogue's writes held over a catch-up's batch: each book's copies on loan and last
/// checkout, written in one `UPDATE` a book (a copy lent, its loan opened and the copy given back
/// are three events and were three statements).
final class CatalogueFold: ProjectionFold {
    private struct Change {
        var onLoan: Int?
        var checkout: (name: String, at: String)?
    }
    private var changes: [BookID: Change] = [:]

    func take(_ recorded: RecordedEvent) -> Folding {
        switch recorded.event {
        case .book(.copyLent(let e)), .book(.copyReturned(let e)):
            changes[e.book, default: Change()].onLoan = e.onLoan
            return .held
        case .loan(.opened(let e)):
            changes[e.book, default: Change()].checkout = (
                e.borrowerName.known ?? CatalogueEntry.Checkout.erasedName, Timestamp.format(e.lentAt)
            )
            return .held
        case .book, .user(.closed), .user(.profileChanged):
            return .applied
        case .loan(.renewed), .loan(.returned), .loan(.noticeIssued), .user, .emailClaim, .patron, .inbox, .bookmark, .isbnClaim, .hold,
            .cardClaim, .walkIn, .appKey, .usernameClaim:
            return .ignored
        }
    }

    /// One statement a book, in the order of their ids (the `id` index is walked in order).
    func flush(_ db: Database) throws {
        if changes.isEmpty { return }
        let statement = try db.cachedStatement(
            sql: """
                UPDATE catalogue_books SET on_loan = IFNULL(?, on_loan), last_checkout_name = IFNULL(?, last_checkout_name),
                    last_checkout_at = IFNULL(?, last_checkout_at)
                WHERE id = ?
                """)
        for (id, change) in changes.map({ ($0.key.description, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            try statement.execute(arguments: [change.onLoan, change.checkout?.name, change.checkout?.at, id])
        }
        changes.removeAll(keepingCapacity: true)
    }
}
