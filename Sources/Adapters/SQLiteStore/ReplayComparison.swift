import Application
import GRDB

/// Verify's last step: the read models replayed into the scratch database (attached as
/// `replayed`) must equal the live ones (`main`) row for row, `EXCEPT` both ways.
extension LibraryDatabase {
    /// Read-model tables compared after a replay, with the columns that identify a row.
    static let readModelTables: [(table: String, key: String)] = [
        ("catalogue_books", "id"), ("accounts", "id"), ("sessions", "session_id"), ("loans", "id"), ("notices", "id"),
        ("bookmarks", "member_id || ' ' || key"), ("holds", "id"), ("app_keys", "digest"), ("catalogue_numbers", "number"),
    ]

    /// The first difference (table, key, live row, replayed row), or how much was equal.
    static func compareReadModels(_ db: Database, replayed: Int64) throws -> AuditCheck {
        for (table, key) in readModelTables {
            if let row = try Row.fetchOne(
                db, sql: "SELECT \(key) AS k, * FROM main.\(table) EXCEPT SELECT \(key) AS k, * FROM replayed.\(table) LIMIT 1")
            {
                let twin = try Row.fetchOne(
                    db, sql: "SELECT * FROM replayed.\(table) WHERE \(key) = ?", arguments: [row["k"] as DatabaseValue])
                return difference(
                    .rowDiffers(table: table, key: "\(row["k"] as DatabaseValue)", live: describe(row), replayed: twin.map(describe)))
            }
            if let row = try Row.fetchOne(
                db, sql: "SELECT \(key) AS k, * FROM replayed.\(table) EXCEPT SELECT \(key) AS k, * FROM main.\(table) LIMIT 1")
            {
                return difference(.rowMissingLive(table: table, key: "\(row["k"] as DatabaseValue)", replayed: describe(row)))
            }
        }
        return AuditCheck(.replay, passed: true, .replayEqual(events: replayed, readModels: readModelTables.count))
    }

    private static func difference(_ finding: AuditFinding) -> AuditCheck { AuditCheck(.replay, passed: false, finding) }

    private static func describe(_ row: Row) -> String {
        row.columnNames.filter { $0 != "k" }.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: " ")
    }
}
