import Logging
import PostgresNIO

/// One connection's statements, for the code of this adapter: run a statement, read rows, and run
/// a block in a transaction that rolls back when it throws and rethrows the block's own error
/// (PostgresNIO's `withTransaction` wraps it, which would hide an `AppendConflict`).
struct SQLSession {
    let connection: PostgresConnection
    let logger: Logger

    /// Runs a statement and discards its rows.
    func run(_ query: PostgresQuery) async throws {
        try await connection.query(query, logger: logger)
    }

    /// The rows of a query, decoded as `types`.
    func rows<each Column: PostgresDecodable>(_ query: PostgresQuery, as types: (repeat each Column).Type) async throws
        -> [(repeat each Column)]
    {
        var result: [(repeat each Column)] = []
        for try await row in try await connection.query(query, logger: logger).decode(types) { result.append(row) }
        return result
    }

    /// The one column of a query's rows.
    func column<Column: PostgresDecodable>(_ query: PostgresQuery, as type: Column.Type) async throws -> [Column] {
        var result: [Column] = []
        for try await value in try await connection.query(query, logger: logger).decode(Column.self) { result.append(value) }
        return result
    }

    /// The first column of the first row, if any.
    func value<Column: PostgresDecodable>(_ query: PostgresQuery, as type: Column.Type) async throws -> Column? {
        for try await value in try await connection.query(query, logger: logger).decode(Column.self) { return value }
        return nil
    }

    /// Runs `body` between BEGIN (`begin`) and COMMIT; ROLLBACK and the body's error when it throws.
    func transaction<T>(_ begin: PostgresQuery = "BEGIN", _ body: () async throws -> T) async throws -> T {
        try await run(begin)
        do {
            let value = try await body()
            try await run("COMMIT")
            return value
        } catch {
            try? await run("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a savepoint, undone if it throws.
    func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        try await run("SAVEPOINT append")
        do {
            let value = try await body()
            try await run("RELEASE SAVEPOINT append")
            return value
        } catch {
            try await run("ROLLBACK TO SAVEPOINT append")
            try await run("RELEASE SAVEPOINT append")
            throw error
        }
    }
}

extension PostgresClient {
    /// Runs `body` with a connection of the pool, as a session.
    func session<T: Sendable>(_ logger: Logger, _ body: (SQLSession) async throws -> T) async throws -> T {
        try await withConnection { connection in try await body(SQLSession(connection: connection, logger: logger)) }
    }
}
