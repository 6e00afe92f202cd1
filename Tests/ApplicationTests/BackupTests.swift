import Application
import Composition
import Domain
import Foundation
import Synchronization
import Testing

@testable import SQLiteStore

/// Backups and restores on real SQLite files, through the use cases (issue 21).
@Suite("backups and restores")
struct BackupTests {
    @Test func rotationNamesBackupsByTheSecondAndKeepsTheNewest() {
        let rotation = BackupRotation(database: "/srv/shelfmark/library.sqlite", keep: 2)
        let moment = Date(timeIntervalSince1970: 1_796_652_305)  // 2026-12-07 14:05:05 UTC
        #expect(rotation.fileName(at: moment) == "library-20261207-140505Z.sqlite")
        let names = (0..<4).map { rotation.fileName(at: moment + Double($0) * 3_600) }
        let others = ["library.sqlite", "library-notes.sqlite", "library-20261207-140505Z.sqlite.key", "other-20261207-140505Z.sqlite"]
        #expect(rotation.expired((names + others).shuffled()) == Array(names.prefix(2)))
        #expect(rotation.expired(Array(names.prefix(2))).isEmpty)
        #expect(BackupRotation(database: "lib", keep: 1).fileName(at: moment) == "lib-20261207-140505Z.sqlite")
    }

    @Test func aRestoreIsRefusedWhileAProcessHasTheLibraryOpenAndKeepsWhatItReplacesOnceClosed() async throws {
        let t = try TestLibrary()
        let added = try await t.library.catalogue.addBook.execute(
            BookDraft(title: "Dune", authors: ["Herbert"]), copies: 1, by: .cliOperator)
        let backup = t.folder.url.appendingPathComponent("backups/one.sqlite").path
        let report = try await t.library.backUp.execute(to: backup, by: .cliOperator)
        #expect(report.summary.events == 1 && report.keyFile == backup + ".key" && report.anchorFile == nil)
        await #expect(throws: BackupRefused(.fileExists(backup))) { try await t.library.backUp.execute(to: backup, by: .cliOperator) }
        _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "Emma", authors: ["Austen"]), copies: 1, by: .cliOperator)

        var configuration = ShelfmarkConfiguration(databasePath: t.folder.databasePath)
        configuration.durability = .off
        let restore = Bootstrap.restoreLibrary(configuration, clock: t.clock)
        await #expect(throws: BackupRefused(.libraryInUse(t.folder.databasePath))) { try await restore.execute(from: backup) }
        try t.database.close()

        let restored = try await restore.execute(from: backup)
        #expect(restored.restored == report.summary)
        let replaced = try #require(restored.replaced)
        #expect(replaced.keptAs == t.folder.databasePath + ".replaced-" + BackupRotation.stamp(t.clock.now()))
        #expect(replaced.summary?.events == 2)
        let (library, database) = try Bootstrap.openLibrary(configuration)
        defer { try? database.close() }
        #expect(try await library.catalogue.listBooks.execute(CatalogueQuery(), by: .cliOperator).items.map(\.id) == [added.id])
        #expect(try await library.verifyLog.execute(by: .cliOperator).allSatisfy(\.passed))
    }

    @Test func aBackupThatFailsLeavesNothingBehind() async throws {
        let t = try TestLibrary()
        _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["Herbert"]), copies: 1, by: .cliOperator)
        let folder = t.folder.url.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let backup = folder.appendingPathComponent("b.sqlite").path
        // A folder where the database can be written but not the key beside it: the key's name is taken by a folder.
        try FileManager.default.createDirectory(atPath: backup + ".key", withIntermediateDirectories: true)
        await #expect(throws: (any Error).self) { try await t.library.backUp.execute(to: backup, replacing: true, by: .cliOperator) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["b.sqlite.key"])
    }
}

extension BackupTests {
    final class Steps: Sendable {
        let done = Mutex<[Int64]>([])
        let stop = Mutex(false)
        let written = Mutex(0)
    }

    /// One page a step while books are added: the first step waits until more are committed, so
    /// writes land in the middle of the copy; it comes from one snapshot all the same, so it never
    /// restarts (pages done never fall back), holds what was there when it began, and verifies.
    @Test func aBackupInSmallStepsUnderWritesNeverRestartsAndVerifies() async throws {
        let t = try TestLibrary()
        for n in 1...200 {
            _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "Book \(n)", authors: ["A"]), copies: 1, by: .cliOperator)
        }
        let steps = Steps()
        let library = t.library
        let backup = t.folder.url.appendingPathComponent("small-steps.sqlite").path
        let report = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var n = 0
                while !steps.stop.withLock({ $0 }) {
                    _ = try await library.catalogue.addBook.execute(
                        BookDraft(title: "More \(n)", authors: ["B"]), copies: 1, by: .cliOperator)
                    n += 1
                    steps.written.withLock { $0 = n }
                }
            }
            let report = try await t.database.backUp(to: backup, anchors: nil, replacing: false, pagesPerStep: 1) { done, _ in
                if steps.done.withLock({ $0.isEmpty }) {
                    // On GRDB's reader queue, not the cooperative pool: the writer keeps running.
                    let before = steps.written.withLock { $0 }
                    for _ in 0..<10_000 where steps.written.withLock({ $0 }) < before + 5 { usleep(1_000) }
                }
                steps.done.withLock { $0.append(done) }
            }
            steps.stop.withLock { $0 = true }
            try await group.waitForAll()
            return report
        }
        let done = steps.done.withLock { $0 }
        #expect(done.count > 10, "the backup took \(done.count) steps")
        #expect(done == done.sorted(), "the backup restarted: \(done)")
        #expect(report.summary.events >= 200)
        #expect(try await t.database.headPosition() >= report.summary.events + 5, "no write landed during the backup")
        let copy = try LibraryDatabase(path: backup, durability: .off, keyFile: backup + ".key")
        defer { try? copy.close() }
        #expect(try await copy.verify { _, _ in }.allSatisfy(\.passed))
        #expect(try await copy.headPosition() == report.summary.events)
    }
}
