/// What one check of the log found, as values (positions, counts, paths, hashes): the adapters
/// word it in the reader's language. Table, column, stream, trigger and event type names are
/// identifiers, shown as they are.
public indirect enum AuditFinding: Equatable, Sendable {
    // The chain key.
    /// No chain key: the chain is plain SHA-256.
    case noChainKey
    /// The database records keying from a position, but no key is in use.
    case keyNotInUse(keyedFrom: Int64)
    /// The key in use is one the database does not record.
    case keyNotRecorded(path: String, keyedFrom: Int64)
    /// The key file and the database disagree.
    case keyProblem(IntegrityProblem)
    /// The key file is gone or cannot be read.
    case keyFileGone(path: String)
    /// The key file changed since the library was opened.
    case keyFileChanged(path: String)
    /// The key keys the chain from a position, as the database records.
    case keyed(path: String, keyedFrom: Int64)

    // The hash chain.
    /// An empty log.
    case noEvents
    /// Positions 1…`head`, every one keyed.
    case allKeyed(head: Int64)
    /// Positions 1…`head` without a key, as there is none.
    case chainedWithoutKey(head: Int64)
    /// Positions 1…`head` without a key, written before keying.
    case chainedBeforeKeying(head: Int64)
    /// Positions 1…`plain` before keying, the rest up to `head` keyed.
    case partlyKeyed(plain: Int64, head: Int64)
    /// The stored hash is not the one computed (each the first 12 hex digits; `stored` nil when
    /// none is stored); `unkeyedFrom` when the hash was made without the key that keys from there.
    case chainBreaks(position: Int64, stored: String?, computed: String, unkeyedFrom: Int64?)
    /// An exported event whose hash is not the one computed.
    case exportChainBreaks(position: Int64)
    /// An exported event that does not follow the one before it.
    case doesNotFollow(position: Int64, previous: Int64)
    /// An exported event claiming redacted fields an export never redacts.
    case falseRedaction(position: Int64, type: String)
    /// An export's events and streams, all chained.
    case exportChained(events: Int64, streams: Int)

    // Contiguity.
    /// A position missing before the next event.
    case positionMissing(Int64, next: Int64)
    /// A stream's version jumping.
    case versionJumps(stream: String, from: Int64, to: Int64, position: Int64)
    /// An exported stream's version jumping.
    case exportVersionJumps(stream: String, to: Int64, position: Int64)
    /// The read models have seen further than the log's end.
    case eventsRemoved(seen: Int64, head: Int64)
    /// Positions 1…`events` and `streams` streams without gaps.
    case contiguous(events: Int64, streams: Int)

    // The append-only triggers.
    /// The triggers are the ones Shelfmark created.
    case triggersInPlace
    /// A trigger is missing.
    case triggerMissing(String)
    /// A trigger's SQL is not Shelfmark's.
    case triggerAltered(String)
    /// Triggers on events Shelfmark did not create.
    case unexpectedTriggers([String])

    // The replay.
    /// The replay stopped at an event it cannot read.
    case replayStopped(position: Int64, type: String, part: EventPart)
    /// A read model's row differs (each row as `column=value …`; `replayed` nil when it has none).
    case rowDiffers(table: String, key: String, live: String, replayed: String?)
    /// A replayed row the live read model lacks.
    case rowMissingLive(table: String, key: String, replayed: String)
    /// Every read model equal after the replay.
    case replayEqual(events: Int64, readModels: Int)

    // Personal data.
    /// Events sealed, members erased, and erased members' events still in clear in the file.
    case personalData(sealed: Int, erasedMembers: Int, inClear: Int)
    /// A member's personal data was sealed (first at `position`) and their key is gone, though no
    /// event closed their account: the data was erased outside the log.
    case personalKeyMissing(member: String, position: Int64)
    /// A member is recorded erased at `position`, where no event of the log closed their account.
    case erasedWithoutClosing(member: String, position: Int64)
    /// A member's key is there again after the event at `position` closed their account and erased it.
    case keyAfterErasure(member: String, position: Int64)
    /// The address claimed at `position` is in a stream not named with the library's claim secret:
    /// the secret, or the stream's name, was changed outside the log.
    case claimNameWrong(position: Int64)
    /// Exported events of erased members whose hashes cannot be recomputed from the export.
    case erasedUnchecked(positions: [Int64])
    /// Exported events whose secrets are redacted, whose hashes cannot be recomputed.
    case secretsUnchecked(positions: [Int64])

    // An export that cannot be read.
    /// A line that is not an exported event.
    case notAnExportedEvent(line: Int)

    // Anchors.
    /// The anchor file named cannot be read.
    case anchorFileUnreadable(path: String)
    /// No anchor file yet.
    case noAnchorFile(path: String)
    /// A line of the anchor file is not an anchor.
    case notAnAnchor(line: Int, path: String)
    /// Signatures cannot be checked without a chain key.
    case anchorsUncheckable
    /// A line's signature is not made with this log's key.
    case wrongSignature(line: Int, position: Int64)
    /// The log lacks an anchored head (`time` as the anchor file writes it), and why.
    case headLacking(position: Int64, time: String, line: Int, why: AuditFinding)
    /// Position 0 anchored with a hash other than 64 zeros.
    case emptyLogHash
    /// The log ends before the anchored position.
    case logCut(head: Int64)
    /// The anchored position holds another hash.
    case logRewritten
    /// The anchor file holds no anchor.
    case noAnchorsYet(path: String)
    /// Every anchored head is in the log.
    case anchorsHeld(count: Int, path: String, furthest: Int64, time: String)

    /// Several problems, said one after the other.
    case all([AuditFinding])

    // The database file.
    /// Every page and index of the file reads back whole (SQLite's integrity check).
    case fileIntact
    /// The file is damaged: SQLite's first complaint, as it words it.
    case fileDamaged(String)

    /// The part of a stored event that cannot be read back.
    public enum EventPart: String, Equatable, Sendable {
        case eventID, time, correlationID, causationID, payload
        /// Its type is none the codec knows.
        case unknownType
    }
}
