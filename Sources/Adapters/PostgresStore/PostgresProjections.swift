import Application
import Foundation
import PostgresNIO

/// A fold of events into read-model tables on PostgreSQL.
protocol PostgresProjection: Sendable {
    /// Stable name, the key of its stored position (the SQLite projection's name).
    var name: String { get }
    /// Removes every row of the read model, before a replay.
    func reset(_ session: SQLSession) async throws
    /// Applies one event to the read model, in the append's transaction.
    func apply(_ event: RecordedEvent, _ session: SQLSession) async throws
}

/// The projections kept up to date inline with appends, in the append's transaction (so every
/// server reads its own writes, and another server's, as soon as they commit), each with its
/// position stored in the same transaction as its rows.
struct PostgresProjections: Sendable {
    let all: [any PostgresProjection]
    /// Opens the personal data of the events they fold.
    let cipher: any PersonalCipher

    func apply(_ event: RecordedEvent, _ session: SQLSession) async throws {
        for projection in all { try await projection.apply(event, session) }
    }

    /// Records that every projection has applied the log up to `head` (a position stored further on stays).
    func markCaughtUp(_ head: Int64, _ session: SQLSession) async throws {
        let names = all.map(\.name)
        try await session.run(
            """
            INSERT INTO projection_positions (name, position) SELECT unnest(\(names)::text[]), \(head)
            ON CONFLICT (name) DO UPDATE SET position = GREATEST(projection_positions.position, excluded.position)
            """)
    }

    /// Each projection's stored position (0 when it has none).
    func positions(_ session: SQLSession) async throws -> [Int64] {
        let stored = Dictionary(
            try await session.rows("SELECT name, position FROM projection_positions", as: (String, Int64).self), uniquingKeysWith: max)
        return all.map { stored[$0.name] ?? 0 }
    }

    /// Brings every projection from its stored position to the head of the log, in the caller's
    /// transaction (under the writer's lock: no append runs meanwhile), reading each event once for
    /// all of them. At start-up this reads nothing when projections are current.
    func catchUp(_ session: SQLSession, batch: Int = 5_000, progress: (Int64, Int64) -> Void = { _, _ in }) async throws {
        let head = try await PostgresEventRows.head(session)
        var positions = try await positions(session)
        var position = positions.min() ?? head
        while position < head {
            let events = try await PostgresEventRows.after(position, limit: batch, cipher, session)
            guard let last = events.last else { break }
            for event in events {
                for (index, projection) in all.enumerated() where positions[index] < event.position {
                    try await projection.apply(event, session)
                }
            }
            position = last.position
            for index in positions.indices where positions[index] < position { positions[index] = position }
            try await markCaughtUp(position, session)
            progress(position, head)
        }
    }

    /// Empties every read model and replays the whole log into it, in the caller's transaction.
    func rebuild(_ session: SQLSession, progress: (Int64, Int64) -> Void) async throws -> Int64 {
        for projection in all { try await projection.reset(session) }
        try await session.run("DELETE FROM projection_positions WHERE name = ANY(\(all.map(\.name))::text[])")
        try await catchUp(session, progress: progress)
        return try await PostgresEventRows.head(session)
    }
}
