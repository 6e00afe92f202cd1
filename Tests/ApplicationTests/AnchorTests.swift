import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import LogChain
@testable import SQLiteStore

@Suite("anchors: signed checkpoints of the log's head")
struct AnchorTests {
    func library(books: Int) async throws -> TestLibrary {
        let t = try TestLibrary()
        for n in 1...books {
            _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "Book \(n)", authors: ["A"]), copies: 1, by: .cliOperator)
        }
        return t
    }

    @Test func aCutTailPassesWithoutAnAnchorButNotWithOne() async throws {
        let t = try await library(books: 5)
        let file = t.folder.url.appendingPathComponent("elsewhere.anchors").path
        let (anchor, written) = try await t.library.verifyLog.anchor(to: file, by: .cliOperator)
        #expect(anchor.position == 5 && written == file)
        try cutTail(t.folder.databasePath, after: 3)
        _ = try await t.database.rebuild { _, _ in }

        // What no chain can see: the prefix that is left is intact.
        let unanchored = try await t.library.verifyLog.execute(by: .cliOperator)
        #expect(unanchored.allSatisfy { $0.passed }, "\(unanchored)")
        #expect(unanchored.last?.detail.hasPrefix("no anchor file yet") == true)
        let failed = failures(try await t.library.verifyLog.execute(anchors: file, by: .cliOperator))
        #expect(
            failed == [
                "anchors":
                    "the log lacks the head anchored at position 5 on \(anchor.time) (line 1): the log ends at position 3: events were cut"
            ])
    }

    @Test func aRewriteMadeWithTheKeyIsCaughtByAnAnchorInTheDataFolder() async throws {
        let t = try await library(books: 3)
        let (anchor, file) = try await t.library.verifyLog.anchor(by: .cliOperator)
        #expect(file == t.folder.databasePath + ".anchors")
        #expect(
            try await t.library.verifyLog.execute(by: .cliOperator).last?.detail.hasPrefix("the log holds every anchored head: 1 anchor in")
                == true)

        // Whoever holds the key can recompute a keyed chain: only the anchor tells.
        let key = try #require(try ChainKey.load(t.folder.databasePath + ".key"))
        try rewrite(
            t.folder.databasePath, "UPDATE events SET actor = 'mallory' WHERE position = 2", from: 2, hash: ChainHasher(key: key).hash)
        #expect(try await t.database.verify(anchors: .none) { _, _ in }.allSatisfy(\.passed))
        let failed = failures(try await t.library.verifyLog.execute(by: .cliOperator))  // the data folder's anchors, by default
        #expect(
            failed == [
                "anchors":
                    "the log lacks the head anchored at position 3 on \(anchor.time) (line 1): the event there has another hash: the log was rewritten"
            ])
    }

    @Test func anchorsNotSignedWithTheLogsKeyAreReported() async throws {
        let t = try await library(books: 2)
        let file = t.folder.url.appendingPathComponent("a.anchors").path
        _ = try await t.library.verifyLog.anchor(to: file, by: .cliOperator)
        // An anchor signed with another library's key, a forged signature, and a line that is no anchor.
        let other = try await library(books: 1)
        _ = try await other.library.verifyLog.anchor(to: file, by: .cliOperator)
        let first = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")[0]
        let forged = first.split(separator: " ").dropLast().joined(separator: " ") + " " + String(repeating: "0", count: 64)
        try (try String(contentsOfFile: file, encoding: .utf8) + forged + "\nnot an anchor\n").write(
            toFile: file, atomically: true, encoding: .utf8)

        let failed = failures(try await t.library.verifyLog.execute(anchors: file, by: .cliOperator))
        #expect(failed.keys.sorted() == ["anchors"])
        #expect(
            failed["anchors"]
                == [
                    "line 2 (position 1): the signature is wrong (not made with this log's chain key)",
                    "line 3 (position 2): the signature is wrong (not made with this log's chain key)",
                    "line 4 of \(file) is not an anchor",
                ].joined(separator: "; "))
    }

    @Test func anAnchorFileNamedForVerifyMustExist() async throws {
        let t = try await library(books: 1)
        let file = t.folder.url.appendingPathComponent("nowhere.anchors").path
        #expect(
            failures(try await t.library.verifyLog.execute(anchors: file, by: .cliOperator)) == [
                "anchors": "cannot read the anchor file \(file)"
            ])
        let member = Principal.user(UserID(UUID()), .member, SessionID(UUID()))
        await #expect(throws: Forbidden.self) { try await t.library.verifyLog.anchor(to: file, by: member) }
    }
}
