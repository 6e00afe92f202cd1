import Application
import Foundation
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
    /// Runs `body` with a connection of the pool, as a session. A database that does not answer
    /// is `StoreUnreachable` (a 503 to the API's clients), not the driver's error: when no
    /// connection comes within `OutOfReach.wait` (the pool retries a server that refuses for a
    /// minute before it gives up; during an outage, `waitWhileOut`), or the connection is lost
    /// under a statement.
    func session<T: Sendable>(_ logger: Logger, _ body: (SQLSession) async throws -> T) async throws -> T {
        let leased = OutOfReach.Lease()
        let wait = OutOfReach.gate.wait(for: self)
        do {
            return try await withoutActuallyEscaping(body) { body in
                let work = OutOfReach.Work(body)
                return try await withThrowingTaskGroup(of: T?.self) { group in
                    group.addTask {
                        try await self.withConnection { connection in
                            leased.taken()
                            OutOfReach.gate.reached(self)
                            return try await work.body(SQLSession(connection: connection, logger: logger))
                        }
                    }
                    group.addTask {
                        try? await Task.sleep(for: wait)
                        if !leased.isTaken && !Task.isCancelled {
                            OutOfReach.gate.missed(self)
                            throw StoreUnreachable()
                        }
                        return nil
                    }
                    defer { group.cancelAll() }
                    while let next = try await group.next() {
                        if let value = next { return value }
                    }
                    throw StoreUnreachable()
                }
            }
        } catch {
            // A request given up (its client gone) stays cancelled.
            if Task.isCancelled { throw error }
            throw OutOfReach.said(error, leased: leased.isTaken)
        }
    }
}

/// The database out of reach, told from the driver's errors.
enum OutOfReach {
    /// How long a statement waits for a connection of the pool.
    static let wait: Duration = .seconds(5)
    /// How long it waits once a wait went unanswered, until a connection is leased again: during
    /// an outage each request is told at once rather than after `wait` per statement.
    static let waitWhileOut: Duration = .seconds(1)
    /// The clients whose last wait went unanswered.
    static let gate = Gate()

    /// The pools out of reach, by identity (an entry lives from a wait that went unanswered to
    /// the next connection leased).
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var out: Set<ObjectIdentifier> = []

        func wait(for client: PostgresClient) -> Duration {
            lock.withLock { out.contains(ObjectIdentifier(client)) ? waitWhileOut : OutOfReach.wait }
        }
        func missed(_ client: PostgresClient) { _ = lock.withLock { out.insert(ObjectIdentifier(client)) } }
        func reached(_ client: PostgresClient) { _ = lock.withLock { out.remove(ObjectIdentifier(client)) } }
    }

    /// `StoreUnreachable` for an error that says the database could not be reached or was lost;
    /// any other error as it is. Before a connection was leased, every failure is one of reach.
    static func said(_ error: any Error, leased: Bool) -> any Error {
        if error is StoreUnreachable || error is CancellationError { return error }
        if !leased { return StoreUnreachable() }
        if let error = error as? PSQLError, lost.contains(error.code) { return StoreUnreachable() }
        return error
    }

    /// The codes of a connection that broke under a statement.
    private static let lost: Set<PSQLError.Code> = [.connectionError, .serverClosedConnection, .uncleanShutdown]

    /// Whether the session's connection was leased, set once from the pool's task.
    final class Lease: @unchecked Sendable {
        private let lock = NSLock()
        private var leased = false
        func taken() { lock.withLock { leased = true } }
        var isTaken: Bool { lock.withLock { leased } }
    }

    /// The session's body, carried into the task group that runs it; the group ends before
    /// `session` returns, so the body never outlives its caller, and it runs in one task at a time.
    struct Work<T>: @unchecked Sendable {
        let body: (SQLSession) async throws -> T
        init(_ body: @escaping (SQLSession) async throws -> T) { self.body = body }
    }
}
