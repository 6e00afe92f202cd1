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

/// The pool of connections to the library's database (PostgresNIO's client), and what its
/// sessions have learnt of the database's reach.
final class PostgresPool: Sendable {
    let client: PostgresClient
    private let reach = OutOfReach.Reach()

    init(_ client: PostgresClient) { self.client = client }

    /// Runs the pool until its task is cancelled.
    func run() async { await client.run() }

    /// How long the next session would wait for a connection before saying the store is unreachable.
    var nextWait: Duration { reach.wait }

    /// Runs `body` with a connection of the pool, as a session, in the caller's task. A database
    /// that does not answer is `StoreUnreachable` (a 503 to the API's clients), not the driver's
    /// error: when no connection comes within `OutOfReach.wait` while no other session of the
    /// pool got one either (the pool retries a server that refuses for a minute before it gives
    /// up; a busy pool keeps its callers waiting as before), or the connection is lost under a statement.
    func session<T: Sendable>(_ logger: Logger, _ body: (SQLSession) async throws -> T) async throws -> T {
        let lease = OutOfReach.Lease()
        // The lease is taken in a task of its own, so that giving up on it never waits for the
        // pool (a request cancelled at the wrong moment stays queued until the pool gives up).
        let leasing = Task { [client, reach] in
            do {
                try await client.withConnection { connection in
                    reach.leased()
                    guard lease.offer(connection) else { throw CancellationError() }
                    await lease.handedBack()
                }
            } catch {
                lease.fail(error)
            }
        }
        let timer = Task { [reach] in
            var wait = reach.wait
            while (try? await Task.sleep(for: wait)) != nil {
                // A connection given to another session meanwhile: the database answers, the pool is busy.
                guard reach.unanswered(for: wait) else {
                    wait = OutOfReach.wait
                    continue
                }
                reach.missed()
                lease.giveUp(StoreUnreachable())
                return
            }
        }
        let connection: PostgresConnection
        do {
            connection = try await withTaskCancellationHandler {
                try await lease.connection()
            } onCancel: {
                lease.giveUp(CancellationError())
            }
            timer.cancel()
        } catch {
            timer.cancel()
            leasing.cancel()
            // A request given up (its client gone) stays cancelled.
            if Task.isCancelled { throw error }
            throw OutOfReach.said(error, leased: false)
        }
        defer { lease.handBack() }
        do {
            return try await body(SQLSession(connection: connection, logger: logger))
        } catch {
            throw OutOfReach.said(error, leased: true)
        }
    }
}

/// The database out of reach, told from the driver's errors and from the pool's leases.
enum OutOfReach {
    /// How long a statement waits for a connection while no session of its pool gets one.
    static let wait: Duration = .seconds(5)
    /// How long it waits once a wait went unanswered, until a connection is leased again: during
    /// an outage each request is told at once rather than after `wait` per statement.
    static let waitWhileOut: Duration = .seconds(1)

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

    /// When the pool last gave a session a connection, and whether a wait went unanswered since.
    final class Reach: @unchecked Sendable {
        private let lock = NSLock()
        private var lastLease: ContinuousClock.Instant?
        private var out = false

        /// How long the next session waits.
        var wait: Duration { lock.withLock { out ? waitWhileOut : OutOfReach.wait } }
        func leased() { lock.withLock { (lastLease, out) = (.now, false) } }
        func missed() { lock.withLock { out = true } }
        /// True when no session got a connection in the last `duration`.
        func unanswered(for duration: Duration) -> Bool {
            lock.withLock { lastLease.map { ContinuousClock.now - $0 >= duration } ?? true }
        }
    }

    /// One session's connection, handed from the task that leases it to the session, and back.
    final class Lease: @unchecked Sendable {
        private let lock = NSLock()
        private var waiter: CheckedContinuation<PostgresConnection, any Error>?
        private var offered: PostgresConnection?
        private var failure: (any Error)?
        private var givenUp: (any Error)?
        private var taken = false
        private var back = false
        private var returning: CheckedContinuation<Void, Never>?

        /// The leasing task's connection; false when the session gave up (the pool gets it back).
        func offer(_ connection: PostgresConnection) -> Bool {
            let waiting: CheckedContinuation<PostgresConnection, any Error>? = lock.withLock {
                guard givenUp == nil else { return nil }
                taken = waiter != nil
                if !taken { offered = connection }
                defer { waiter = nil }
                return waiter
            }
            if let waiting {
                waiting.resume(returning: connection)
                return true
            }
            return lock.withLock { givenUp == nil }
        }

        /// The pool could not give a connection.
        func fail(_ error: any Error) {
            let waiting: CheckedContinuation<PostgresConnection, any Error>? = lock.withLock {
                defer { waiter = nil }
                if waiter == nil { failure = error }
                return waiter
            }
            waiting?.resume(throwing: error)
        }

        /// The session waits for its connection (or the failure, or its giving up).
        func connection() async throws -> PostgresConnection {
            try await withCheckedThrowingContinuation { continuation in
                let now: Result<PostgresConnection, any Error>? = lock.withLock {
                    if let givenUp { return .failure(givenUp) }
                    if let offered {
                        taken = true
                        return .success(offered)
                    }
                    if let failure { return .failure(failure) }
                    waiter = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        }

        /// The session stops waiting: its waiter is told `error`, and a connection offered but
        /// not taken goes back to the pool.
        func giveUp(_ error: any Error) {
            let (waiting, release): (CheckedContinuation<PostgresConnection, any Error>?, CheckedContinuation<Void, Never>?) =
                lock.withLock {
                    guard !taken, givenUp == nil else { return (nil, nil) }
                    givenUp = error
                    defer { waiter = nil }
                    guard offered != nil else { return (waiter, nil) }
                    offered = nil
                    back = true
                    defer { returning = nil }
                    return (waiter, returning)
                }
            waiting?.resume(throwing: error)
            release?.resume()
        }

        /// The session is done with the connection.
        func handBack() {
            let release: CheckedContinuation<Void, Never>? = lock.withLock {
                back = true
                defer { returning = nil }
                return returning
            }
            release?.resume()
        }

        /// The leasing task holds the connection until the session hands it back.
        func handedBack() async {
            await withCheckedContinuation { continuation in
                let now: Bool = lock.withLock {
                    if back { return true }
                    returning = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }
}
