import Application
import Domain
import Foundation
import GRDB
import LogChain

/// The key table (migration `v15-personal-keys`), outside the append-only `events` table: one
/// 256-bit key per member whose personal data was sealed (`personal_keys`, made in the write
/// transaction of their first sealed event), the members erased (`erased_members`: their key was
/// deleted in the transaction of their closing event, and none is made again), the digests of
/// erased members' legacy claim streams (`erased_streams`), and the secret naming claim streams
/// when the library has no chain key (`library_secrets`). The writer runs with `secure_delete`,
/// so a deleted key's bytes are overwritten, and checkpoints the WAL after an erasure.
enum PersonalKeys {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE personal_keys (
                    subject TEXT PRIMARY KEY,
                    key BLOB NOT NULL CHECK (length(key) = 32)
                ) STRICT;
                CREATE TABLE erased_members (
                    subject TEXT PRIMARY KEY,
                    position INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE erased_streams (
                    digest TEXT PRIMARY KEY
                ) STRICT;
                CREATE TABLE library_secrets (
                    name TEXT PRIMARY KEY,
                    secret BLOB NOT NULL
                ) STRICT;
                """)
    }

    /// What the table knows of `subject`'s key, in the caller's transaction.
    static func state(_ subject: UserID, _ db: Database) throws -> SubjectKey {
        let id = subject.description
        if let bytes = try Data.fetchOne(db.cachedStatement(sql: "SELECT key FROM personal_keys WHERE subject = ?"), arguments: [id]) {
            guard let key = PersonalKey(bytes: Array(bytes)) else { throw DatabaseError(message: "a personal key of the wrong length") }
            return .active(key)
        }
        let erased = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM erased_members WHERE subject = ?"), arguments: [id])
        return erased == true ? .erased : .none
    }

    /// The stored payload of `event`: its personal data sealed with its member's key, made now
    /// (in the writer's transaction) for their first sealed event. Refuses an erased member's data.
    static func seal(_ event: EventCodec.Encoded, _ cipher: any PersonalCipher, _ db: Database) throws -> String {
        guard let subject = event.personal?.subject else { return event.payload }
        switch try state(subject, db) {
        case .active(let key): return try EventCodec.sealed(event, key: key, cipher: cipher)
        case .erased: throw PersonalDataOfErasedMember(member: subject)
        case .none:
            let key = cipher.newKey()
            try db.cached(sql: "INSERT INTO personal_keys (subject, key) VALUES (?, ?)", arguments: [subject.description, Data(key.bytes)])
            return try EventCodec.sealed(event, key: key, cipher: cipher)
        }
    }

    /// Deletes `member`'s key and records them erased, in the transaction of the event at `position`;
    /// records the digests of the legacy claim streams named by their address (`email-<address>`,
    /// from before claims were named pseudonymously), which exports and history then redact.
    static func erase(_ member: UserID, at position: Int64, names: ClaimNames, _ db: Database) throws {
        try db.cached(sql: "DELETE FROM personal_keys WHERE subject = ?", arguments: [member.description])
        try db.cached(
            sql: "INSERT OR IGNORE INTO erased_members (subject, position) VALUES (?, ?)", arguments: [member.description, position])
        let legacy = try String.fetchAll(
            db,
            sql: """
                SELECT DISTINCT stream_id FROM events
                WHERE stream_id >= 'email-' AND stream_id < 'email.' AND instr(stream_id, '@') > 0
                      AND event_type = 'email.claimed.v1' AND instr(payload, ?) > 0
                """,
            arguments: [#""user":"\#(member)""#])
        for stream in legacy {
            try db.execute(
                sql: "INSERT OR IGNORE INTO erased_streams (digest) VALUES (?)", arguments: [names.digest(of: StreamName(stream))])
        }
    }

    /// Whether a stream is a legacy claim stream named by an erased member's address (read once per name).
    final class ErasedStreams {
        private let db: Database
        private let names: ClaimNames
        private var known: [String: Bool] = [:]

        init(_ db: Database, names: ClaimNames) {
            self.db = db
            self.names = names
        }

        func contains(_ stream: String) throws -> Bool {
            guard stream.hasPrefix("email-"), stream.contains("@") else { return false }
            if let erased = known[stream] { return erased }
            let erased =
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM erased_streams WHERE digest = ?"),
                    arguments: [names.digest(of: StreamName(stream))]) == true
            known[stream] = erased
            return erased
        }

        /// The name an export gives such a stream: its digest, not the address.
        func redactedName(_ stream: String) -> String { "email-erased-" + names.digest(of: StreamName(stream)) }
    }

    /// Reads members' keys for decoding, on one connection (the events' own read transaction,
    /// so events and keys are one snapshot), each member's once; `cipher` opens what they sealed.
    final class Reader {
        private let db: Database
        let cipher: any PersonalCipher
        private var known: [UserID: SubjectKey] = [:]

        init(_ db: Database, cipher: any PersonalCipher) {
            self.db = db
            self.cipher = cipher
        }

        func key(_ subject: UserID) throws -> SubjectKey {
            if let key = known[subject] { return key }
            let key = try PersonalKeys.state(subject, db)
            known[subject] = key
            return key
        }
    }

    /// The secret naming claim streams: a stored one (made when the library had no chain key,
    /// kept so names never change), else derived from the chain key (so the database file alone
    /// cannot tell which address a stream claims), else a new random one, stored.
    static func claimSecret(_ chain: ChainHasher, _ cipher: any PersonalCipher, _ db: Database) throws -> [UInt8] {
        if let stored = try Data.fetchOne(db, sql: "SELECT secret FROM library_secrets WHERE name = 'claim names'") {
            return Array(stored)
        }
        if let derived = chain.claimSecret { return derived }
        let secret = cipher.newKey().bytes
        try db.execute(sql: "INSERT INTO library_secrets (name, secret) VALUES ('claim names', ?)", arguments: [Data(secret)])
        return secret
    }
}
