import Application
import Foundation
import GRDB
import LogChain

/// `audit verify` on the SQLite log: the chain key, the hash chain event by event, positions and
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
                    checks = [key, walk.chain, walk.contiguity, triggers, replay, walk.personalData] + (anchored.map { [$0] } ?? [])
                    return .commit
                }
            }
            return checks
        }
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
        var previous = HashChain.genesis
        var expectedPosition: Int64 = 1
        var versions: [StreamName: Int64] = [:]  // keyed by bytes: two spellings of a name are two streams
        var chainBreak: AuditFinding?
        var gap: AuditFinding?
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
        var personal = PersonalDataCount(streams: PersonalKeys.ErasedStreams(db, names: names))
        let rows = try Row.fetchCursor(db, sql: "SELECT \(EventRows.columns), hash FROM main.events ORDER BY position")
        while let row = try rows.next() {
            let fields = HashChain.Fields(row)
            if gap == nil, fields.position != expectedPosition {
                gap = .positionMissing(expectedPosition, next: fields.position)
            }
            let stream = StreamName(fields.streamID)
            if gap == nil, fields.streamVersion != versions[stream, default: 0] + 1 {
                gap = .versionJumps(
                    stream: "\(stream)", from: versions[stream, default: 0], to: fields.streamVersion, position: fields.position)
            }
            versions[stream] = fields.streamVersion
            expectedPosition = fields.position + 1
            let stored: String? = row["hash"]
            let hash = chain.hash(previous: previous, fields)
            if chainBreak == nil, hash != stored { chainBreak = describeBreak(fields, stored: stored, computed: hash, previous, chain) }
            previous = stored ?? hash
            if unreadable == nil {
                do {
                    let recorded = try EventRows.recorded(row, keys)
                    try personal.count(recorded, fields, keys)
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
        let head = expectedPosition - 1
        let seen = try Int64.fetchOne(db, sql: "SELECT MAX(position) FROM main.projection_positions") ?? 0
        if gap == nil, seen > head {
            gap = .eventsRemoved(seen: seen, head: head)
        }
        return Walk(
            chain: AuditCheck(.hashChain, passed: chainBreak == nil, chainBreak ?? chain.describe(head: head)),
            contiguity: AuditCheck(.contiguity, passed: gap == nil, gap ?? .contiguous(events: total, streams: versions.count)),
            replayed: replayed, unreadable: unreadable, personalData: try personal.check(db))
    }

    private static func describeBreak(
        _ fields: HashChain.Fields, stored: String?, computed: String, _ previous: String, _ chain: ChainHasher
    )
        -> AuditFinding
    {
        let unkeyed = fields.position >= chain.keyedFrom && stored == HashChain.hash(previous: previous, fields)
        return .chainBreaks(
            position: fields.position, stored: stored.map { String($0.prefix(12)) }, computed: String(computed.prefix(12)),
            unkeyedFrom: unkeyed ? chain.keyedFrom : nil)
    }
}

/// Verify's count of the members' personal data in the log: events sealed with a member's key, and
/// events of erased members whose data stays in clear in the file, which the log cannot change,
/// only every view of it. One definition, the one `audit export` redacts by (and `--file` counts):
/// an event holds an erased member's data in clear when its stream is their legacy claim stream
/// (named by the address before sealing; events written there since are sealed, but the name is
/// not), or when its payload, not sealed, holds personal data of a member since erased.
struct PersonalDataCount {
    let streams: PersonalKeys.ErasedStreams
    var sealed = 0
    var clearOfErased = 0

    mutating func count(_ recorded: RecordedEvent, _ fields: HashChain.Fields, _ keys: PersonalKeys.Reader) throws {
        let isSealed = fields.payload.hasPrefix(#"{"$sealed":"#)
        if isSealed { sealed += 1 }
        if try streams.contains(fields.streamID) {
            clearOfErased += 1
        } else if !isSealed, let subject = recorded.event.personalData?.subject, try keys.key(subject) == .erased {
            clearOfErased += 1
        }
    }

    func check(_ db: Database) throws -> AuditCheck {
        let erased = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM main.erased_members") ?? 0
        return AuditCheck(.personalData, passed: true, .personalData(sealed: sealed, erasedMembers: erased, inClear: clearOfErased))
    }
}
