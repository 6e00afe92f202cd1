import Application
import Crypto
import Foundation
import GRDB

/// How the chain hashes each event: as `HashChain.hash` (SHA-256) before the chain key's first
/// position, or everywhere when there is no key; from it on, HMAC-SHA-256 over the same text
/// with a key derived from the chain key. Immutable: each hash starts from a copy of the keyed
/// HMAC state, so sharing one across threads is safe.
struct ChainHasher: @unchecked Sendable {
    static let unkeyed = ChainHasher(key: nil)

    let key: ChainKey?
    private let mac: HMAC<SHA256>?

    init(key: ChainKey?) {
        self.key = key
        mac = key.map { HMAC<SHA256>(key: $0.derived("shelfmark chain v1")) }
    }

    /// The first keyed position; past every position when there is no key.
    var keyedFrom: Int64 { key?.keyedFrom ?? .max }

    /// The hash of one event chained to `previous`.
    func hash(previous: String, _ fields: HashChain.Fields) -> String {
        guard var mac, fields.position >= keyedFrom else { return HashChain.hash(previous: previous, fields) }
        mac.update(data: Data((previous + "\n" + fields.canonical).utf8))
        return hex(mac.finalize())
    }

    /// An anchor's signature: HMAC-SHA-256 over its text with a key derived for anchors; nil without a key.
    func sign(_ text: String) -> String? {
        key.map { hex(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: $0.derived("shelfmark anchor v1"))) }
    }

    /// How positions 1…`head` are chained.
    func describe(head: Int64) -> AuditFinding {
        let plain = min(head, keyedFrom - 1)
        if head == 0 { return .noEvents }
        if plain == 0 { return .allKeyed(head: head) }
        if plain == head { return key == nil ? .chainedWithoutKey(head: head) : .chainedBeforeKeying(head: head) }
        return .partlyKeyed(plain: plain, head: head)
    }
}

/// The chain key as the database records it (table `chain_key`, migration `v10-chain-key`): the
/// first keyed position and the key's fingerprint, so that a log with keyed events is never
/// opened without its key file, or with another one.
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

    static func fetch(_ db: Database) throws -> (keyedFrom: Int64, keyID: String)? {
        try Row.fetchOne(db, sql: "SELECT keyed_from, key_id FROM chain_key WHERE id = 1").map { ($0["keyed_from"], $0["key_id"]) }
    }

    static func record(_ key: ChainKey, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO chain_key (id, keyed_from, key_id) VALUES (1, ?, ?)", arguments: [key.keyedFrom, key.id])
    }

    /// The chain for this database, in the caller's write transaction (so two processes opening
    /// a library at once make one key): no key file given, unkeyed; else the key file's key,
    /// created on first use to key from the next position. Refuses, in one line, a key file
    /// that is missing, or is not the one the database records.
    static func open(keyFile: String?, _ db: Database) throws -> ChainHasher {
        let recorded = try fetch(db)
        guard let keyFile else {
            if let recorded {
                throw ChainKeyError(.keyNeeded(keyedFrom: recorded.keyedFrom))
            }
            return .unkeyed
        }
        let head = try EventRows.head(db)
        switch (recorded, try ChainKey.load(keyFile)) {
        case (nil, let found):
            // A new key; or one made for this database that a crash kept from being recorded (nothing written since).
            let key = try found ?? ChainKey.create(at: keyFile, keyedFrom: head + 1)
            guard key.keyedFrom == head + 1 else {
                throw ChainKeyError(.keyOfAnotherDatabase(path: keyFile, keyedFrom: key.keyedFrom, head: head))
            }
            try record(key, db)
            return ChainHasher(key: key)
        case (let recorded?, nil):
            throw ChainKeyError(.keyFileMissing(path: keyFile, keyedFrom: recorded.keyedFrom))
        case (let recorded?, let key?):
            if let disagreement = disagreement(recorded, key) { throw ChainKeyError(disagreement) }
            return ChainHasher(key: key)
        }
    }

    private static func disagreement(_ recorded: (keyedFrom: Int64, keyID: String), _ key: ChainKey) -> IntegrityProblem? {
        guard recorded.keyedFrom != key.keyedFrom || recorded.keyID != key.id else { return nil }
        return .keyDisagrees(
            path: key.path, fileKeyedFrom: key.keyedFrom, fileKey: key.id, keyedFrom: recorded.keyedFrom, key: recorded.keyID)
    }

    /// Verify's check that the key in use, its file and the database's record still agree.
    static func check(_ chain: ChainHasher, _ db: Database) throws -> AuditCheck {
        let recorded = try fetch(db)
        guard let key = chain.key else {
            guard let recorded else { return AuditCheck(.chainKey, passed: true, .noChainKey) }
            return AuditCheck(.chainKey, passed: false, .keyNotInUse(keyedFrom: recorded.keyedFrom))
        }
        guard let recorded else {
            return AuditCheck(.chainKey, passed: false, .keyNotRecorded(path: key.path, keyedFrom: key.keyedFrom))
        }
        if let disagreement = disagreement(recorded, key) { return AuditCheck(.chainKey, passed: false, .keyProblem(disagreement)) }
        guard let onDisk = try? ChainKey.load(key.path) else { return AuditCheck(.chainKey, passed: false, .keyFileGone(path: key.path)) }
        guard onDisk == key else { return AuditCheck(.chainKey, passed: false, .keyFileChanged(path: key.path)) }
        return AuditCheck(.chainKey, passed: true, .keyed(path: key.path, keyedFrom: key.keyedFrom))
    }
}
