import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStore

/// `Golden/log-v5.jsonl` holds the stored types of issue 18 (usernames and app keys): exported with
/// `shelfmark audit export --include-secrets` from a fresh library driven through the CLI (a
/// librarian added; ann signed up with the username `ann`, changed it to `ann.b`, dropped it,
/// chose `annie` and closed her account; a Prolific key was made for the librarian and revoked).
/// Never edit it; it must replay forever. Its personal fields are sealed and their keys are not
/// exported, so a replay shows the accounts as erased.
@Suite("Golden log: usernames and app keys")
struct GoldenUsernamesLogTests {
    @Test func itReplaysAndLeavesNoKeyNorAccount() async throws {
        let lines = try GoldenLogTests.lines(of: "log-v5.jsonl")
        let folder = TemporaryFolder()
        let database = try await GoldenLogTests.replay(lines, into: folder)
        defer { try? database.close() }
        #expect(try await database.accounts.list(.first).items.isEmpty)
        // The revoked key opens nothing; ann's closing freed every name she had.
        #expect(try await database.appKeys.anyLive(app: "prolific") == false)
    }
}
