import PostgresNIO

extension SQLSession {
    /// Runs `body`'s reads in one read-only REPEATABLE READ transaction, so a page and its total
    /// see the same commits (as one SQLite read transaction does), whatever other servers append.
    func snapshot<T>(_ body: () async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", body)
    }
}

/// A read model's row that does not read back as the value it was written from.
struct UnreadableReadModelRow: Error, CustomStringConvertible {
    let table: String
    let id: String
    var description: String { "the \(table) row \(id) cannot be read" }
}
