import Application
import Domain
import GRDB

extension LoansProjection {
    func makeFold() -> (any ProjectionFold)? { LoansFold() }
}

/// The loans' writes held over a catch-up's batch: a loan opened in the batch is inserted once,
/// with its renewals and return; a loan opened before it is updated once.
final class LoansFold: ProjectionFold {
    private struct Change {
        var dueAt: String?
        var renewals: Int?
        var returnedAt: String?
    }
    /// Loans opened in the batch, in the order they opened (their rowids follow it, as event by event).
    private var opened: [(loan: LoanOpened, change: Change)] = []
    private var openedIndex: [LoanID: Int] = [:]
    /// Loans opened in an earlier batch.
    private var changed: [LoanID: Change] = [:]

    func take(_ recorded: RecordedEvent) -> Folding {
        switch recorded.event {
        case .loan(.opened(let e)):
            // A loan opened twice is the store's to refuse, as event by event.
            guard openedIndex[e.loan] == nil, changed[e.loan] == nil else { return .applied }
            openedIndex[e.loan] = opened.count
            opened.append((e, Change()))
            return .held
        case .loan(.renewed(let e)):
            change(e.loan) {
                $0.dueAt = Timestamp.format(e.dueAt); $0.renewals = e.renewals
            }
            return .held
        case .loan(.returned(let e)):
            change(e.loan) { $0.returnedAt = Timestamp.format(e.at) }
            return .held
        case .loan(.noticeIssued), .inbox(.noticesRead), .user(.closed), .user(.profileChanged):
            return .applied
        case .hold(let e) where HoldNotice.of(e) != nil:
            return .applied  // a notice to the member, as `LoansProjection` writes it
        case .book, .user, .emailClaim, .patron, .bookmark, .isbnClaim, .hold, .cardClaim, .walkIn, .appKey, .usernameClaim:
            return .ignored
        }
    }

    private func change(_ loan: LoanID, _ edit: (inout Change) -> Void) {
        if let index = openedIndex[loan] { edit(&opened[index].change) } else { edit(&changed[loan, default: Change()]) }
    }

    /// The loans opened, in order, then the others' changes, in the order of their ids.
    func flush(_ db: Database) throws {
        if !opened.isEmpty {
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO loans (id, book_id, book_title, borrower_id, borrower_name, lent_at, due_at, borrower_key, renewals,
                        returned_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for (loan, change) in opened {
                let columns = LoansProjection.columns(of: loan, dueAt: change.dueAt ?? Timestamp.format(loan.dueAt))
                try insert.execute(arguments: StatementArguments(columns + [change.renewals ?? 0, change.returnedAt]))
            }
        }
        if !changed.isEmpty {
            let update = try db.cachedStatement(
                sql: """
                    UPDATE loans SET due_at = IFNULL(?, due_at), renewals = IFNULL(?, renewals), returned_at = IFNULL(?, returned_at)
                    WHERE id = ?
                    """)
            for (id, change) in changed.map({ ($0.key.description, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
                try update.execute(arguments: [change.dueAt, change.renewals, change.returnedAt, id])
            }
        }
        opened.removeAll(keepingCapacity: true)
        openedIndex.removeAll(keepingCapacity: true)
        changed.removeAll(keepingCapacity: true)
    }
}
