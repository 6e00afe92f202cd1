import Application
import Foundation
import LogChain
import Logging
import PostgresNIO

/// Search answers kept in `search_cache` (outside data, not a read model), at most `maxEntries`,
/// as `SQLiteSearchCache` keeps them. Every server of the library shares it: a store locks the
/// table against other stores (never against look-ups) for its two statements, so servers
/// storing at once neither deadlock on each other's rows nor leave more than `maxEntries`.
public struct PostgresSearchCache: SearchCache {
    let client: PostgresPool
    let logger: Logger
    let maxEntries: Int
    let metrics: StoreMetrics

    public func lookup(_ key: String) async throws -> (page: SearchPage, storedAt: Date)? {
        let row = try await client.session(logger) { session in
            try await session.rows("SELECT page, stored_at FROM search_cache WHERE key = \(key)", as: (String, String).self).first
        }
        guard let (json, storedAt) = row, let page = try? JSONDecoder().decode(SearchPage.self, from: Data(json.utf8)) else {
            metrics.cacheMisses.increment()
            return nil
        }
        metrics.cacheHits.increment()
        return (page, try Timestamp.parse(storedAt))
    }

    public func store(_ key: String, _ page: SearchPage, at: Date) async throws {
        var fresh = page
        fresh.stale = false
        let json = String(decoding: try JSONEncoder().encode(fresh), as: UTF8.self)
        try await client.session(logger) { [maxEntries] session in
            try await session.transaction {
                try await session.run("LOCK TABLE search_cache IN SHARE ROW EXCLUSIVE MODE")
                try await session.run(
                    """
                    INSERT INTO search_cache (key, page, stored_at) VALUES (\(key), \(json), \(Timestamp.format(at)))
                    ON CONFLICT (key) DO UPDATE SET page = excluded.page, stored_at = excluded.stored_at
                    """)
                try await session.run(
                    """
                    DELETE FROM search_cache WHERE key IN (
                        SELECT key FROM search_cache ORDER BY stored_at DESC, key DESC OFFSET \(maxEntries))
                    """)
            }
        }
    }

    /// The `search_cache` table (SQLite's of `v5-search-cache`).
    static let migration = PostgresSchema.Migration(
        name: "search-cache-v1",
        sql: [
            """
            CREATE TABLE search_cache (
                key TEXT COLLATE "C" PRIMARY KEY,
                page TEXT NOT NULL,
                stored_at TEXT COLLATE "C" NOT NULL
            )
            """,
            "CREATE INDEX search_cache_by_age ON search_cache (stored_at)",
        ])
}

extension PostgresLibrary {
    /// The search cache, bounded to `maxEntries` answers (`LibraryDatabase.searchCache` on SQLite).
    public func searchCache(maxEntries: Int = 1000) -> PostgresSearchCache {
        PostgresSearchCache(client: client, logger: logger, maxEntries: maxEntries, metrics: metrics)
    }
}
