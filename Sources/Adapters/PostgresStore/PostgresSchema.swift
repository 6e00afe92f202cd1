import Logging
import PostgresNIO

/// The database schema, as numbered migrations, applied in order and recorded in
/// `shelfmark_migrations`. All of them run in one transaction under an advisory lock, so two
/// servers starting at once migrate once, and a failed migration leaves nothing half-done.
/// Never edit a shipped migration: add one.
enum PostgresSchema {
    struct Migration {
        let name: String
        let sql: [PostgresQuery]
    }

    /// The lock every append and every migration takes (`pg_advisory_xact_lock`): one writer at a time
    /// in the whole network of servers, so positions are given and committed in order.
    static let writerLock: Int64 = 0x5348_454C_464D_4B31  // "SHELFMK1"
    /// The lock a copy into the database holds from its first look until its last event (`pg_try_advisory_lock`).
    static let copyLock: Int64 = 0x5348_454C_464D_4B43  // "SHELFMKC"

    /// The log's own migrations, then the read models' (`PostgresReadModels`).
    static var migrations: [Migration] { log + PostgresReadModels.migrations }

    static let log: [Migration] = [
        Migration(
            name: "v1-events",
            sql: [
                """
                CREATE TABLE events (
                    position BIGINT PRIMARY KEY CHECK (position >= 1),
                    stream_id TEXT NOT NULL,
                    stream_version BIGINT NOT NULL CHECK (stream_version >= 1),
                    event_type TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    event_id TEXT NOT NULL UNIQUE,
                    recorded_at TEXT NOT NULL,
                    actor TEXT NOT NULL,
                    correlation_id TEXT NOT NULL,
                    causation_id TEXT,
                    hash TEXT NOT NULL,
                    UNIQUE (stream_id, stream_version)
                )
                """,
                """
                CREATE FUNCTION shelfmark_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP;
                END $$
                """,
                """
                CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
                FOR EACH ROW EXECUTE FUNCTION shelfmark_events_append_only()
                """,
                """
                CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
                FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_events_append_only()
                """,
                // Only the next position, and the next version of its stream, may be inserted.
                """
                CREATE FUNCTION shelfmark_events_next_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.position <> COALESCE((SELECT MAX(position) FROM events), 0) + 1
                        OR NEW.stream_version <> COALESCE(
                            (SELECT MAX(stream_version) FROM events WHERE stream_id = NEW.stream_id), 0) + 1
                    THEN
                        RAISE EXCEPTION 'events are append-only: only the next position and stream version may be inserted';
                    END IF;
                    RETURN NEW;
                END $$
                """,
                """
                CREATE TRIGGER events_insert_guard BEFORE INSERT ON events
                FOR EACH ROW EXECUTE FUNCTION shelfmark_events_next_only()
                """,
                """
                CREATE TABLE chain_key (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    keyed_from BIGINT NOT NULL,
                    key_id TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE personal_keys (
                    subject TEXT PRIMARY KEY,
                    key BYTEA NOT NULL CHECK (length(key) = 32)
                )
                """,
                "CREATE TABLE erased_members (subject TEXT PRIMARY KEY, position BIGINT NOT NULL)",
                "CREATE TABLE erased_streams (digest TEXT PRIMARY KEY)",
                "CREATE TABLE library_secrets (name TEXT PRIMARY KEY, secret BYTEA NOT NULL)",
                """
                CREATE TABLE request_receipts (
                    key TEXT PRIMARY KEY,
                    fingerprint TEXT NOT NULL,
                    attempt TEXT NOT NULL,
                    recorded_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    answer BYTEA
                )
                """,
                "CREATE INDEX request_receipts_by_expiry ON request_receipts (expires_at)",
                "CREATE TABLE projection_positions (name TEXT PRIMARY KEY, position BIGINT NOT NULL)",
            ])
    ]

    /// Creates or upgrades the schema; the names of the migrations it applied.
    @discardableResult
    static func migrate(_ session: SQLSession) async throws -> [String] {
        try await session.transaction {
            try await session.run("SELECT pg_advisory_xact_lock(\(writerLock))")
            try await session.run(
                "CREATE TABLE IF NOT EXISTS shelfmark_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            let applied = Set(try await session.column("SELECT name FROM shelfmark_migrations", as: String.self))
            var done: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.sql { try await session.run(statement) }
                try await session.run("INSERT INTO shelfmark_migrations (name) VALUES (\(migration.name))")
                done.append(migration.name)
            }
            return done
        }
    }
}
