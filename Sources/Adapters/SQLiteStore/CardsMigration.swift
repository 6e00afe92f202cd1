import Domain
import GRDB

/// Migration `v13-cards`: the accounts read model keeps each member's card number, and the loans
/// read model the key of a walk-in borrower's name (`WalkInName.key`), so the loans list finds a
/// name however it was typed. Existing walk-in loans get their key here; the log is not touched.
enum CardsMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE accounts ADD COLUMN card_number TEXT;
                CREATE UNIQUE INDEX accounts_by_card ON accounts (card_number) WHERE card_number IS NOT NULL;
                ALTER TABLE loans ADD COLUMN borrower_key TEXT;
                CREATE INDEX loans_by_walk_in ON loans (borrower_key, due_at) WHERE borrower_id IS NULL;
                """)
        for row in try Row.fetchAll(db, sql: "SELECT id, borrower_name FROM loans WHERE borrower_id IS NULL") {
            try db.execute(
                sql: "UPDATE loans SET borrower_key = ? WHERE id = ?",
                arguments: [WalkInName.key(row["borrower_name"]), row["id"] as String])
        }
    }
}
