import Foundation
import GRDB
import Testing

/// The members' keys sit outside the append-only log, where anyone who can write the file can
/// delete one. A key may only go, and a member be recorded erased, with the event that closed
/// their account (found by an outside test: deleting a key row erased a member, skipping every
/// rule of closing, and `audit verify` passed, even after the read models were rebuilt).
@Suite("The members' keys against the log, through the CLI")
struct PersonalKeysTamperTests {
    /// A library where Ada is a member and Bob closed his account; their ids, and Bob's key as it
    /// was before (a backup would have it), in hex.
    func library() async throws -> (TemporaryDatabase, ada: String, bob: String, bobsKey: String) {
        let db = TemporaryDatabase()
        for (email, name) in [("ada@example.org", "Ada"), ("bob@example.org", "Bob")] {
            let signup = try await shelfmark(
                ["signup", "--email", email, "--name", name, "--country", "GB"], database: db.path, stdin: "Member-Pass1\n")
            #expect(signup.status == 0, "\(signup.stderr)")
        }
        let raw = try DatabaseQueue(path: db.path)
        defer { try? raw.close() }
        let keys = try await raw.read { db in try Row.fetchAll(db, sql: "SELECT subject, hex(key) FROM personal_keys ORDER BY subject") }
        try raw.close()
        #expect(try await shelfmark(["user", "close", "bob@example.org", "--yes"], database: db.path).status == 0)
        let bob = try await DatabaseQueue(path: db.path).read { db in try String.fetchOne(db, sql: "SELECT subject FROM erased_members") }
        let ada = try #require(keys.first { $0[0] != bob })
        let bobs = try #require(keys.first { $0[0] == bob })
        let verified = try await shelfmark(["audit", "verify"], database: db.path)
        #expect(verified.status == 0 && verified.stdout.contains("1 member erased"), "\(verified.stdout)")
        return (db, ada[0], bobs[0], bobs[1])
    }

    /// `sql` run on the file (as `sqlite3` would), the read models rebuilt, then verify's personal-data line.
    func verifyAfter(_ sql: String, _ db: TemporaryDatabase) async throws -> CLIResult {
        let raw = try DatabaseQueue(path: db.path)
        try await raw.write { try $0.execute(sql: sql) }
        try raw.close()
        #expect(try await shelfmark(["projections", "rebuild"], database: db.path).status == 0)
        return try await shelfmark(["audit", "verify"], database: db.path)
    }

    @Test func aKeyDeletedOutsideTheLogFailsVerify() async throws {
        let (db, ada, _, _) = try await library()
        let verify = try await verifyAfter("DELETE FROM personal_keys WHERE subject = '\(ada)'", db)
        #expect(verify.status == 1, "\(verify.stdout)")
        #expect(
            verify.stdout.contains("FAIL personal data: the key of member \(ada) is gone, though no event closed their account"),
            "\(verify.stdout)")
    }

    @Test func aMemberRecordedErasedOutsideTheLogFailsVerify() async throws {
        let (db, ada, _, _) = try await library()
        let verify = try await verifyAfter(
            "DELETE FROM personal_keys WHERE subject = '\(ada)'; INSERT INTO erased_members (subject, position) VALUES ('\(ada)', 1)", db)
        #expect(verify.status == 1, "\(verify.stdout)")
        #expect(
            verify.stdout.contains("FAIL personal data: member \(ada) is recorded erased at position 1, where no event closed"),
            "\(verify.stdout)")
    }

    @Test func aKeyPutBackAfterTheErasureFailsVerify() async throws {
        let (db, _, bob, key) = try await library()
        let verify = try await verifyAfter("INSERT INTO personal_keys (subject, key) VALUES ('\(bob)', X'\(key)')", db)
        #expect(verify.status == 1, "\(verify.stdout)")
        #expect(verify.stdout.contains("FAIL personal data: member \(bob) has a key again"), "\(verify.stdout)")
    }

    /// Found by an outside walk: a claim secret put in `library_secrets` renamed every address's
    /// stream, so no member could log in, and verify passed.
    @Test func aClaimSecretChangedOutsideTheLogFailsVerify() async throws {
        let (db, _, _, _) = try await library()
        let verify = try await verifyAfter("INSERT INTO library_secrets (name, secret) VALUES ('claim names', randomblob(32))", db)
        #expect(verify.status == 1, "\(verify.stdout)")
        #expect(verify.stdout.contains("FAIL personal data: the address claimed at position "), "\(verify.stdout)")
        #expect(verify.stdout.contains("not named with this library's claim secret"), "\(verify.stdout)")
    }
}
