import Application
import Foundation
import GRDB
import LogChain

/// The chain key as the database records it (table `chain_key`, migration `v10-chain-key`): the
/// first keyed position and the key's fingerprint (see `RecordedChainKey`).
enum ChainKeyRecord {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE chain_key (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    keyed_from INTEGER NOT NULL,
                    key_id TEXT NOT NULL
                ) STRICT
                """)
    }

    static func fetch(_ db: Database) throws -> RecordedChainKey? {
        try Row.fetchOne(db, sql: "SELECT keyed_from, key_id FROM chain_key WHERE id = 1").map {
            RecordedChainKey(keyedFrom: $0["keyed_from"], keyID: $0["key_id"])
        }
    }

    static func record(_ key: ChainKey, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO chain_key (id, keyed_from, key_id) VALUES (1, ?, ?)", arguments: [key.keyedFrom, key.id])
    }

    /// The chain for this database, in the caller's write transaction (so two processes opening
    /// a library at once make one key); see `RecordedChainKey.open`.
    static func open(keyFile: String?, _ db: Database) throws -> ChainHasher {
        let opened = try RecordedChainKey.open(keyFile: keyFile, recorded: try fetch(db), head: try EventRows.head(db))
        if let key = opened.toRecord { try record(key, db) }
        return opened.chain
    }

    /// Verify's check that the key in use, its file and the database's record still agree.
    static func check(_ chain: ChainHasher, _ db: Database) throws -> AuditCheck {
        RecordedChainKey.check(chain, recorded: try fetch(db))
    }
}
