import GRDB
import LogChain

/// The database schema, as numbered migrations. Never edit a shipped migration: add one.
enum Schema {
    static let noUpdateTrigger = """
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END;
        """

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-events") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        position INTEGER PRIMARY KEY,
                        stream_id TEXT NOT NULL,
                        stream_version INTEGER NOT NULL CHECK (stream_version >= 1),
                        event_type TEXT NOT NULL,
                        payload TEXT NOT NULL,
                        event_id TEXT NOT NULL UNIQUE,
                        recorded_at TEXT NOT NULL,
                        actor TEXT NOT NULL,
                        correlation_id TEXT NOT NULL,
                        causation_id TEXT,
                        UNIQUE (stream_id, stream_version)
                    ) STRICT;
                    \(noUpdateTrigger)
                    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
                    BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END;
                    CREATE TABLE projection_positions (
                        name TEXT PRIMARY KEY,
                        position INTEGER NOT NULL
                    ) STRICT;
                    """)
        }
        migrator.registerMigration("v1-catalogue") { db in
            try db.execute(
                sql: """
                    CREATE TABLE catalogue_books (
                        seq INTEGER PRIMARY KEY,
                        id TEXT NOT NULL UNIQUE,
                        title TEXT NOT NULL,
                        title_key TEXT NOT NULL,
                        authors TEXT NOT NULL,
                        author_key TEXT NOT NULL,
                        isbn TEXT,
                        publisher TEXT,
                        categories TEXT NOT NULL,
                        cover_url TEXT,
                        description TEXT,
                        copies INTEGER NOT NULL,
                        on_loan INTEGER NOT NULL DEFAULT 0,
                        added_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL
                    ) STRICT;
                    CREATE INDEX catalogue_books_by_title ON catalogue_books (title_key, seq);
                    CREATE INDEX catalogue_books_by_author ON catalogue_books (author_key, title_key, seq);
                    CREATE VIRTUAL TABLE catalogue_search USING fts5 (
                        title, authors, isbn, publisher, categories,
                        tokenize = 'unicode61 remove_diacritics 2'
                    );
                    """)
        }
        migrator.registerMigration("v2-accounts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE accounts (
                        id TEXT PRIMARY KEY,
                        email TEXT NOT NULL UNIQUE,
                        display_name TEXT NOT NULL,
                        country TEXT NOT NULL,
                        role TEXT NOT NULL,
                        registered_at TEXT NOT NULL
                    ) STRICT;
                    CREATE TABLE sessions (
                        token_digest TEXT PRIMARY KEY,
                        session_id TEXT NOT NULL UNIQUE,
                        user_id TEXT NOT NULL,
                        expires_at TEXT NOT NULL
                    ) STRICT;
                    CREATE INDEX sessions_by_user ON sessions (user_id);
                    """)
        }
        migrator.registerMigration("v3-country-list") { db in
            try db.execute(
                sql: """
                    CREATE TABLE country_list (
                        code TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        french_name TEXT
                    ) STRICT;
                    """)
        }
        migrator.registerMigration("v4-circulation") { db in
            try db.execute(
                sql: """
                    CREATE TABLE loans (
                        id TEXT PRIMARY KEY,
                        book_id TEXT NOT NULL,
                        book_title TEXT NOT NULL,
                        borrower_id TEXT,
                        borrower_name TEXT NOT NULL,
                        lent_at TEXT NOT NULL,
                        due_at TEXT NOT NULL,
                        renewals INTEGER NOT NULL DEFAULT 0,
                        returned_at TEXT
                    ) STRICT;
                    CREATE INDEX loans_by_borrower ON loans (borrower_id, due_at);
                    CREATE INDEX loans_active_by_due ON loans (due_at) WHERE returned_at IS NULL;
                    CREATE INDEX loans_by_book ON loans (book_id);
                    CREATE TABLE notices (
                        id TEXT PRIMARY KEY,
                        member_id TEXT NOT NULL,
                        loan_id TEXT NOT NULL,
                        book_title TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        due_at TEXT NOT NULL,
                        issued_at TEXT NOT NULL,
                        issued_position INTEGER NOT NULL,
                        read_at TEXT
                    ) STRICT;
                    CREATE INDEX notices_by_member ON notices (member_id, issued_position);
                    ALTER TABLE catalogue_books ADD COLUMN last_checkout_name TEXT;
                    ALTER TABLE catalogue_books ADD COLUMN last_checkout_at TEXT;
                    """)
        }
        migrator.registerMigration("v5-search-cache") { db in
            try db.execute(
                sql: """
                    CREATE TABLE search_cache (
                        key TEXT PRIMARY KEY,
                        page TEXT NOT NULL,
                        stored_at TEXT NOT NULL
                    ) STRICT;
                    CREATE INDEX search_cache_by_age ON search_cache (stored_at);
                    """)
        }
        migrator.registerMigration("v6-bookmarks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE bookmarks (
                        member_id TEXT NOT NULL,
                        key TEXT NOT NULL,
                        book_id TEXT,
                        title TEXT NOT NULL,
                        title_key TEXT NOT NULL,
                        authors TEXT NOT NULL,
                        first_publish_year INTEGER,
                        cover_id INTEGER,
                        rating_average REAL,
                        bookmarked_at TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (member_id, key)
                    ) STRICT;
                    """)
        }
        migrator.registerMigration("v7-hash-chain") { db in try SQLiteHashChain.migrate(db) }
        migrator.registerMigration("v8-login-failures") { db in try SQLiteLoginFailures.migrate(db) }
        migrator.registerMigration("v9-events-insert-guard") { db in try db.execute(sql: AppendOnlyTriggers.insertGuard) }
        migrator.registerMigration("v10-chain-key") { db in try ChainKeyRecord.migrate(db) }
        migrator.registerMigration("v11-catalogue-filing") { db in try CatalogueProjection.migrateFiling(db) }
        migrator.registerMigration("v12-holds") { db in try HoldsProjection.migrate(db) }
        migrator.registerMigration("v13-cards") { db in try CardsMigration.migrate(db) }
        migrator.registerMigration("v15-personal-keys") { db in try PersonalKeys.migrate(db) }
        // The accounts read model shows each member's login name (the claim streams decide who has one).
        migrator.registerMigration("v16-usernames") { db in try db.execute(sql: "ALTER TABLE accounts ADD COLUMN username TEXT") }
        // The Prolific API: its keys (by digest) and the small numbers it names books by.
        migrator.registerMigration("v17-prolific") { db in
            try AppKeysProjection.migrate(db)
            try CatalogueNumbersProjection.migrate(db)
        }
        // The accounts read model keeps each member's preferred language (NULL: none chosen).
        migrator.registerMigration("v18-language") { db in try db.execute(sql: "ALTER TABLE accounts ADD COLUMN language TEXT") }
        // Titles file without French leading articles too ("Les Misérables" under M): keys recomputed.
        migrator.registerMigration("v19-french-articles") { db in try CatalogueProjection.refile(db) }
        // Safe retries: the receipts of requests sent with an Idempotency-Key, outside the log.
        migrator.registerMigration("v20-request-receipts") { db in try SQLiteRequestReceipts.migrate(db) }
        return migrator
    }
}
