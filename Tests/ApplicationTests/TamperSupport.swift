import Application
import Foundation
import GRDB

@testable import LogChain
@testable import SQLiteStore

/// Issue 12's attacker, who can write the database file: lifts the UPDATE trigger, makes
/// `change`, recomputes every hash from `position` on with `hash` (the documented formula: 20
/// lines of Python), and puts the trigger back exactly as it was.
func rewrite(_ path: String, _ change: String, from position: Int64, hash: (String, HashChain.Fields) -> String) throws {
    let raw = try DatabaseQueue(path: path)
    defer { try? raw.close() }
    try raw.write { db in
        try db.execute(sql: "DROP TRIGGER events_no_update")
        try db.execute(sql: change)
        var previous =
            try String.fetchOne(db, sql: "SELECT hash FROM events WHERE position = ?", arguments: [position - 1]) ?? HashChain.genesis
        for row in try Row.fetchAll(db, sql: "SELECT * FROM events WHERE position >= ? ORDER BY position", arguments: [position]) {
            previous = hash(previous, HashChain.Fields(row))
            try db.execute(sql: "UPDATE events SET hash = ? WHERE position = ?", arguments: [previous, row["position"] as Int64])
        }
        try db.execute(sql: Schema.noUpdateTrigger)
    }
}

/// The other attack: the DELETE trigger lifted, the newest events removed, the trigger put back.
func cutTail(_ path: String, after position: Int64) throws {
    let raw = try DatabaseQueue(path: path)
    defer { try? raw.close() }
    try raw.write { db in
        try db.execute(sql: "DROP TRIGGER events_no_delete")
        try db.execute(sql: "DELETE FROM events WHERE position > ?", arguments: [position])
        try db.execute(sql: AppendOnlyTriggers.noDelete)
    }
}

/// The failed checks, by name.
func failures(_ checks: [AuditCheck]) -> [String: String] {
    Dictionary(uniqueKeysWithValues: checks.filter { !$0.passed }.map { ($0.name, $0.detail) })
}
