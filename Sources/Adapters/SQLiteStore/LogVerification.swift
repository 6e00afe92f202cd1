import Application
import Foundation
import GRDB
import LogChain

/// `audit verify` on the SQLite log: the file's own pages and indexes (SQLite's integrity check;
/// a damaged file is said at once and nothing else is read from it), the chain key, the hash chain event by event, positions and
/// stream versions without gaps, the append-only triggers, a full replay into a scratch database
/// whose read models must equal the live ones row for row, and the anchors. Everything is read in
/// one read transaction on one connection (the scratch database attached to it), so appends
/// running meanwhile never make the chain, the replayed events and the live tables disagree.
extension LibraryDatabase: LogVerifier {
    public func verify(anchors: AnchorSource, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> [AuditCheck] {
        let anchorFile = AnchorFile.load(anchors)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-verify-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scratch = try LibraryDatabase(path: folder.appendingPathComponent("replay.sqlite").path, durability: .off, cipher: cipher)
        defer { try? scratch.close() }
        let chain = self.chain
        let (names, cipher) = (eventStore.claimNames, self.cipher)
        return try await scans.writeWithoutTransaction { db in
            // ATTACH is refused inside a transaction: attach first, then read everything in one.
            try db.execute(sql: "ATTACH DATABASE ? AS replayed", arguments: [scratch.pool.path])
            defer { try? db.execute(sql: "DETACH DATABASE replayed") }
            var checks: [AuditCheck] = []
            try db.readOnly {
                try db.inTransaction(.deferred) {
                    let file = Self.fileCheck(db)
                    guard file.passed else {
                        checks = [file]
                        return .commit
                    }
                    let key = try ChainKeyRecord.check(chain, db)
                    let walk = try Self.walk(
                        db, chain: chain, names: names, cipher: cipher, replayingInto: scratch, progress: progress)
                    let triggers = try AppendOnlyTriggers.check(db)
                    // The scratch's first read on this connection comes now, after the replay committed there.
                    let replay =
                        try walk.unreadable.map {
                            AuditCheck(.replay, passed: false, .replayStopped(position: $0.position, type: $0.type, part: $0.part))
                        }
                        ?? Self.compareReadModels(db, replayed: walk.replayed)
                    let anchored = try anchorFile.map { try AnchorFile.check($0, chain, db) }
                    checks = [file, key, walk.chain, walk.contiguity, triggers, replay, walk.personalData] + (anchored.map { [$0] } ?? [])
                    return .commit
                }
            }
            return checks
        }
    }

    /// SQLite's integrity check of the library's file: every page, every index entry against its
    /// row. A damaged index passes every other check (none reads through it) and then fails the
    /// first query that does, so it is looked for first.
    static func fileCheck(_ db: Database) -> AuditCheck {
        do {
            let complaints = try String.fetchAll(db, sql: "PRAGMA main.integrity_check(1)")
            guard complaints == ["ok"] else {
                return AuditCheck(.databaseFile, passed: false, .fileDamaged(oneLine(complaints.first ?? "no answer")))
            }
            return AuditCheck(.databaseFile, passed: true, .fileIntact)
        } catch {
            return AuditCheck(.databaseFile, passed: false, .fileDamaged(oneLine((error as? DatabaseError)?.message ?? "\(error)")))
        }
    }

    /// SQLite's complaint on one line, without its `*** in database main ***` heading, at most
    /// 200 characters.
    private static func oneLine(_ complaint: String) -> String {
        let lines = complaint.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("***") }
        return String(lines.joined(separator: "; ").prefix(200))
    }

    /// Verify with no anchors (tests, tools).
    public func verify(progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> [AuditCheck] {
        try await verify(anchors: .none, progress: progress)
    }

    /// What one pass over the log found: the chain and contiguity checks, and how far the replay got.
    struct Walk {
        let chain: AuditCheck
        let contiguity: AuditCheck
        let replayed: Int64
        /// The first event that cannot be read, which stopped the replay.
        let unreadable: UnreadableEvent?
        /// What the log holds of members' personal data: sealed, and erased members' in clear.
        let personalData: AuditCheck
    }

    /// One pass over the log: each event's hash and place, and the events folded into the
    /// scratch database's read models in batches (its own connection and transactions).
    static func walk(
        _ db: Database, chain: ChainHasher, names: ClaimNames, cipher: any PersonalCipher, replayingInto scratch: LibraryDatabase,
        progress: (Int64, Int64) -> Void
    ) throws -> Walk {
        let total = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM main.events") ?? 0
        var log = LogWalk(chain: chain)
        var unreadable: UnreadableEvent?
        var batch: [RecordedEvent] = []
        var replayed: Int64 = 0
        func fold() throws {
            try scratch.pool.write { [batch, projections = scratch.projections] db in
                for event in batch { try projections.apply(event, db) }
            }
            replayed += Int64(batch.count)
            batch.removeAll(keepingCapacity: true)
        }
        let keys = PersonalKeys.Reader(db, cipher: cipher)
        let streams = PersonalKeys.ErasedStreams(db, names: names)
        var personal = PersonalDataCount(names: names)
        let rows = try Row.fetchCursor(db, sql: "SELECT \(EventRows.columns), hash FROM main.events ORDER BY position")
        while let row = try rows.next() {
            let fields = HashChain.Fields(row)
            log.visit(fields, stored: row["hash"])
            if unreadable == nil {
                do {
                    let recorded = try EventRows.recorded(row, keys)
                    try personal.count(recorded, fields, isErasedStream: streams.contains, key: keys.key)
                    batch.append(recorded)
                    if batch.count == 5_000 { try fold() }
                } catch let error as UnreadableEvent {
                    unreadable = error
                }
            }
            if fields.position % 10_000 == 0 { progress(fields.position, total) }
        }
        if unreadable == nil { try fold() }
        progress(total, total)
        let seen = try Int64.fetchOne(db, sql: "SELECT MAX(position) FROM main.projection_positions") ?? 0
        let (chained, contiguity) = log.checks(total: total, seen: seen)
        let erased = try Row.fetchAll(db, sql: "SELECT subject, position FROM main.erased_members").map {
            (subject: $0[0] as String, position: $0[1] as Int64)
        }
        return Walk(
            chain: chained, contiguity: contiguity, replayed: replayed, unreadable: unreadable,
            personalData: personal.check(erasedMembers: erased, wholeLog: unreadable == nil))
    }
}
