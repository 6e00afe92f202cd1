import Application
import Foundation
import GRDB
import LogChain

/// Search answers kept in `search_cache` (outside data, not a read model), at most `maxEntries`.
public struct SQLiteSearchCache: SearchCache {
    let pool: DatabasePool
    let reads: ReadConnections
    let maxEntries: Int
    let metrics: StoreMetrics

    public func lookup(_ key: String) async throws -> (page: SearchPage, storedAt: Date)? {
        let row = try reads.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT page, stored_at FROM search_cache WHERE key = ?"), arguments: [key])
                .map { (page: $0["page"] as String, storedAt: $0["stored_at"] as String) }
        }
        guard let row, let page = try? JSONDecoder().decode(SearchPage.self, from: Data(row.page.utf8)) else {
            metrics.cacheMisses.increment()
            return nil
        }
        metrics.cacheHits.increment()
        return (page, try Timestamp.parse(row.storedAt))
    }

    public func store(_ key: String, _ page: SearchPage, at: Date) async throws {
        var fresh = page
        fresh.stale = false
        let json = String(decoding: try JSONEncoder().encode(fresh), as: UTF8.self)
        let maxEntries = self.maxEntries
        try await pool.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO search_cache (key, page, stored_at) VALUES (?, ?, ?)",
                arguments: [key, json, Timestamp.format(at)])
            try db.execute(
                sql: "DELETE FROM search_cache WHERE key IN (SELECT key FROM search_cache ORDER BY stored_at DESC LIMIT -1 OFFSET ?)",
                arguments: [maxEntries])
        }
    }
}

extension LibraryDatabase {
    /// The search cache, bounded to `maxEntries` answers.
    public func searchCache(maxEntries: Int = 1000) -> SQLiteSearchCache {
        SQLiteSearchCache(pool: pool, reads: reads, maxEntries: maxEntries, metrics: metrics)
    }
}
