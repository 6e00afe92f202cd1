import Application
import Domain
import Foundation
import LogChain
import PostgresNIO

/// Members' keys on PostgreSQL, in tables outside the append-only `events` (as on SQLite, see
/// `PersonalKeys` there): `personal_keys` (made in the write transaction of a member's first
/// sealed event), `erased_members` (their key deleted in the transaction of their closing
/// event, none made again), `erased_streams` (digests of erased members' legacy claim streams)
/// and `library_secrets` (the secret naming claim streams when there is no chain key).
enum PostgresPersonalKeys {
    /// What the table knows of `subject`'s key, in the session's transaction.
    static func state(_ subject: UserID, _ session: SQLSession) async throws -> SubjectKey {
        let id = subject.description
        let rows = try await session.rows(
            """
            SELECT k.key, e.subject IS NOT NULL FROM (SELECT \(id)::text AS subject) AS s
            LEFT JOIN personal_keys k ON k.subject = s.subject LEFT JOIN erased_members e ON e.subject = s.subject
            """, as: (Data?, Bool).self)
        guard let (bytes, erased) = rows.first else { return .none }
        if let bytes {
            guard let key = PersonalKey(bytes: Array(bytes)) else { throw StoredValueProblem("a personal key of the wrong length") }
            return .active(key)
        }
        return erased ? .erased : .none
    }

    /// The stored payload of `event`: its personal data sealed with its member's key, made now (in
    /// the writer's transaction) for their first sealed event. Refuses an erased member's data.
    static func seal(_ event: EventCodec.Encoded, _ cipher: any PersonalCipher, _ session: SQLSession) async throws -> String {
        guard let subject = event.personal?.subject else { return event.payload }
        switch try await state(subject, session) {
        case .active(let key): return try EventCodec.sealed(event, key: key, cipher: cipher)
        case .erased: throw PersonalDataOfErasedMember(member: subject)
        case .none:
            let key = cipher.newKey()
            try await session.run("INSERT INTO personal_keys (subject, key) VALUES (\(subject.description), \(Data(key.bytes)))")
            return try EventCodec.sealed(event, key: key, cipher: cipher)
        }
    }

    /// Deletes `member`'s key and records them erased, in the transaction of the event at
    /// `position`; records the digests of their legacy claim streams (named by their address).
    static func erase(_ member: UserID, at position: Int64, names: ClaimNames, _ session: SQLSession) async throws {
        let id = member.description
        try await session.run("DELETE FROM personal_keys WHERE subject = \(id)")
        try await session.run("INSERT INTO erased_members (subject, position) VALUES (\(id), \(position)) ON CONFLICT DO NOTHING")
        let marker = #""user":"\#(member)""#
        let legacy = try await session.column(
            """
            SELECT DISTINCT stream_id FROM events
            WHERE stream_id >= 'email-' AND stream_id < 'email.' AND strpos(stream_id, '@') > 0
                  AND event_type = 'email.claimed.v1' AND strpos(payload, \(marker)) > 0
            """, as: String.self)
        for stream in legacy {
            let digest = names.digest(of: StreamName(stream))
            try await session.run("INSERT INTO erased_streams (digest) VALUES (\(digest)) ON CONFLICT DO NOTHING")
        }
    }

    /// The keys of `subjects`, read in one statement.
    static func keys(of subjects: Set<UserID>, _ session: SQLSession) async throws -> [UserID: SubjectKey] {
        var found: [UserID: SubjectKey] = [:]
        for subject in subjects { found[subject] = SubjectKey.none }
        let ids = subjects.map(\.description)
        let rows = try await session.rows(
            """
            SELECT s.subject, k.key, e.subject IS NOT NULL FROM unnest(\(ids)::text[]) AS s(subject)
            LEFT JOIN personal_keys k ON k.subject = s.subject LEFT JOIN erased_members e ON e.subject = s.subject
            """, as: (String, Data?, Bool).self)
        for (id, bytes, erased) in rows {
            guard let subject = UserID(id) else { continue }
            if let bytes {
                guard let key = PersonalKey(bytes: Array(bytes)) else { throw StoredValueProblem("a personal key of the wrong length") }
                found[subject] = .active(key)
            } else if erased {
                found[subject] = .erased
            }
        }
        return found
    }

    /// The secret naming claim streams: a stored one, else derived from the chain key, else a new
    /// random one, stored (in the caller's transaction, under the writer's lock).
    static func claimSecret(_ chain: ChainHasher, _ cipher: any PersonalCipher, _ session: SQLSession) async throws -> [UInt8] {
        if let stored = try await session.value("SELECT secret FROM library_secrets WHERE name = 'claim names'", as: Data.self) {
            return Array(stored)
        }
        if let derived = chain.claimSecret { return derived }
        let secret = cipher.newKey().bytes
        try await session.run("INSERT INTO library_secrets (name, secret) VALUES ('claim names', \(Data(secret)))")
        return secret
    }
}

/// A value in the database that Shelfmark never writes so (a key of the wrong length, a bad UUID).
struct StoredValueProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
