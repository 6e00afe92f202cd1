import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStore

/// `Golden/log-v6.jsonl` holds the stored type of issue 19 (the saved language): exported with
/// `shelfmark audit export --include-secrets` from a fresh library driven through the CLI (claire
/// signed up with `--language fr-CA --login`, ran `account edit --language en` twice, the second
/// recording nothing, then logged out). Never edit it; it must replay forever. Its personal fields
/// are sealed and their keys are not exported, so a replay shows the account as erased; the
/// language choices, not personal data, read as recorded. (Its chain is keyed with the exporting
/// library's key, so it verifies there, not here.)
@Suite("Golden log: language preference")
struct GoldenLanguageLogTests {
    @Test func itReplaysWithBothChoicesInOrder() async throws {
        let lines = GoldenLogTests.lines(of: "log-v6.jsonl")
        let folder = TemporaryFolder()
        let database = try await GoldenLogTests.replay(lines, into: folder)
        defer { try? database.close() }
        #expect(try await database.accounts.list(.first).items.isEmpty)
        let chosen = try await database.eventStore.readAll(after: 0, limit: 100).compactMap { recorded -> Language? in
            guard case .user(.languageChosen(let e)) = recorded.event else { return nil }
            return e.language
        }
        #expect(chosen == [.french, .english])
    }
}
