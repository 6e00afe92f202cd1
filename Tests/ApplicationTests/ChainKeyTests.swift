import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import LogChain
@testable import SQLiteStore

@Suite("the chain key")
struct ChainKeyTests {
    func append(_ database: LibraryDatabase, _ numbers: ClosedRange<Int>) async throws {
        for n in numbers {
            try await database.eventStore.append([StreamAppend(StreamName("s-\(n)"), expected: .noStream, events: [pending(n)])])
        }
    }

    @Test func anExistingLogIsKeyedFromItsNextPositionAndItsUnkeyedPrefixStillVerifies() async throws {
        let folder = TemporaryFolder()
        let keyFile = folder.databasePath + ".key"
        let unkeyed = try LibraryDatabase(path: folder.databasePath, durability: .off)
        try await append(unkeyed, 1...3)
        try unkeyed.close()

        let keyed = try LibraryDatabase(path: folder.databasePath, durability: .off, keyFile: keyFile)
        try await append(keyed, 4...5)
        #expect(try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int == 0o600)
        let key = try #require(try ChainKey.load(keyFile))
        #expect(key.keyedFrom == 4)
        let recorded = try await keyed.scans.read { try Int64.fetchOne($0, sql: "SELECT keyed_from FROM chain_key") }
        #expect(recorded == 4)

        let checks = try await keyed.verify { _, _ in }
        #expect(checks.allSatisfy { $0.passed }, "\(checks)")
        #expect(
            checks.first { $0.name == "hash chain" }?.detail == "positions 1–3 chained without a key (written before keying); 4–5 keyed")

        // The secret is in no event, and the keyed hashes are not the unkeyed formula's.
        var lines: [String] = []
        _ = try await keyed.export(from: 1) { lines.append($0) }
        #expect(!lines.joined().contains(hex(key.secret)))
        #expect(LibraryDatabase.verifyExport(lines: lines).first?.detail == "the chain breaks at position 4")
        #expect(keyed.verifyExport(lines: lines).allSatisfy { $0.passed })
    }

    @Test func aChainRecomputedWithTheDocumentedFormulaNoLongerVerifies() async throws {
        let t = try TestLibrary()  // keyed from position 1: the key file is made on first open
        for n in 1...3 {
            _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "Book \(n)", authors: ["A"]), copies: 1, by: .cliOperator)
        }
        try rewrite(t.folder.databasePath, "UPDATE events SET actor = 'mallory' WHERE position = 2", from: 2, hash: HashChain.hash)
        let failed = failures(try await t.library.verifyLog.execute(by: .cliOperator))
        #expect(failed.keys.sorted() == ["hash chain"], "\(failed)")
        #expect(failed["hash chain"]?.hasPrefix("the chain breaks at position 2") == true)
        #expect(failed["hash chain"]?.hasSuffix("its hash was made without the chain key, which keys every event from position 1") == true)
    }

    @Test func aKeyedLogOpensOnlyWithItsOwnKeyFile() async throws {
        let folder = TemporaryFolder()
        let keyFile = folder.databasePath + ".key"
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off, keyFile: keyFile)
        try await append(database, 1...1)
        try database.close()
        try FileManager.default.moveItem(atPath: keyFile, toPath: keyFile + ".aside")

        let missing = #expect(throws: ChainKeyError.self) {
            try LibraryDatabase(path: folder.databasePath, durability: .off, keyFile: keyFile)
        }
        #expect(missing?.english.contains("keyed from position 1 with the chain key file \(keyFile), which is missing") == true)
        #expect(missing?.english.contains("\n") == false)
        #expect(throws: ChainKeyError.self) { try LibraryDatabase(path: folder.databasePath, durability: .off) }

        // Another library's key in its place.
        let other = TemporaryFolder()
        try LibraryDatabase(path: other.databasePath, durability: .off, keyFile: keyFile).close()
        let foreign = #expect(throws: ChainKeyError.self) {
            try LibraryDatabase(path: folder.databasePath, durability: .off, keyFile: keyFile)
        }
        #expect(foreign?.english.contains("disagrees with the database") == true, "\(String(describing: foreign))")

        try FileManager.default.removeItem(atPath: keyFile)
        try FileManager.default.moveItem(atPath: keyFile + ".aside", toPath: keyFile)
        #expect(
            try await LibraryDatabase(path: folder.databasePath, durability: .off, keyFile: keyFile).verify { _, _ in }.allSatisfy(\.passed)
        )
    }

    @Test func verifyReportsADatabaseRecordThatDisagreesWithTheKey() async throws {
        let t = try TestLibrary()
        _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["F"]), copies: 1, by: .cliOperator)
        let raw = try DatabaseQueue(path: t.folder.databasePath)
        try await raw.write { try $0.execute(sql: "UPDATE chain_key SET keyed_from = 99") }
        try raw.close()
        let failed = failures(try await t.library.verifyLog.execute(by: .cliOperator))
        #expect(failed.keys.sorted() == ["chain key"], "\(failed)")
        #expect(failed["chain key"]?.contains("(keyed from position 99, key") == true, "\(failed)")
    }

    @Test func aReplayedCopyCarriesTheKeyAndVerifiesOnItsOwn() async throws {
        let t = try TestLibrary()
        for n in 1...2 {
            _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "Book \(n)", authors: ["A"]), copies: 1, by: .cliOperator)
        }
        let into = t.folder.url.appendingPathComponent("copy.sqlite").path
        #expect(try await t.library.replay.execute(into: into, by: .cliOperator) == 2)
        #expect(try ChainKey.load(into + ".key")?.secret == ChainKey.load(t.folder.databasePath + ".key")?.secret)
        let copy = try LibraryDatabase(path: into, durability: .off, keyFile: into + ".key")
        #expect(try await copy.verify { _, _ in }.allSatisfy(\.passed))
    }
}
