import Application
import Domain

/// Verify's pass over the log, event by event, the same for every store: each event's hash
/// recomputed and linked to the one before, positions and stream versions without gaps.
public struct LogWalk {
    private let chain: ChainHasher
    private var previous = HashChain.genesis
    private var expectedPosition: Int64 = 1
    private var versions: [StreamName: Int64] = [:]  // keyed by bytes: two spellings of a name are two streams
    private var chainBreak: AuditFinding?
    private var gap: AuditFinding?

    public init(chain: ChainHasher) { self.chain = chain }

    /// Checks one stored event, in log order.
    public mutating func visit(_ fields: HashChain.Fields, stored: String?) {
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
        let hash = chain.hash(previous: previous, fields)
        if chainBreak == nil, hash != stored { chainBreak = describeBreak(fields, stored: stored, computed: hash) }
        previous = stored ?? hash
    }

    /// The chain and contiguity checks, once every event was visited: `total` events counted in
    /// the same snapshot, and `seen` the furthest position any read model recorded applying
    /// (further than the log's head: events were removed).
    public func checks(total: Int64, seen: Int64) -> (chain: AuditCheck, contiguity: AuditCheck) {
        let head = expectedPosition - 1
        var gap = self.gap
        if gap == nil, seen > head { gap = .eventsRemoved(seen: seen, head: head) }
        return (
            AuditCheck(.hashChain, passed: chainBreak == nil, chainBreak ?? chain.describe(head: head)),
            AuditCheck(.contiguity, passed: gap == nil, gap ?? .contiguous(events: total, streams: versions.count))
        )
    }

    private func describeBreak(_ fields: HashChain.Fields, stored: String?, computed: String) -> AuditFinding {
        let unkeyed = fields.position >= chain.keyedFrom && stored == HashChain.hash(previous: previous, fields)
        let shown = Self.shownLength(stored, computed)
        return .chainBreaks(
            position: fields.position, stored: stored.map { String($0.prefix(shown)) }, computed: String(computed.prefix(shown)),
            unkeyedFrom: unkeyed ? chain.keyedFrom : nil)
    }

    /// How much of two hashes a finding shows: 12 characters, or as many as it takes to tell them
    /// apart (found by an outside walk: a hash altered in its last character was shown as
    /// "stored 7b203a3c505c, computed 7b203a3c505c").
    static func shownLength(_ stored: String?, _ computed: String) -> Int {
        guard let stored else { return 12 }
        let same = zip(stored, computed).prefix { $0 == $1 }.count
        return max(12, same + 1)
    }
}

/// Verify's count of the members' personal data in the log: events sealed with a member's key, and
/// events of erased members whose data stays in clear in the store, which the log cannot change,
/// only every view of it. One definition, the one `audit export` redacts by (and `--file` counts):
/// an event holds an erased member's data in clear when its stream is their legacy claim stream
/// (named by the address before sealing; events written there since are sealed, but the name is
/// not), or when its payload, not sealed, holds personal data of a member since erased.
///
/// It also checks the keys against the log: a member's key may only be gone, and the member
/// recorded erased, by the event that closed their account (found by an outside test: deleting a
/// key row erased a member, skipping every rule of closing, and verify passed).
public struct PersonalDataCount {
    private var sealed = 0
    private var clearOfErased = 0
    /// The events that erased a member, by member.
    private var erasures: [UserID: Int64] = [:]
    /// The first problem of the keys found while counting.
    private var problem: AuditFinding?
    /// The library's claim names, which address claims must be named by (nil: not checked).
    private let names: ClaimNames?

    /// With `names`, each address claim's stream is checked to be named with them: the secret they
    /// are made with (`library_secrets`, or the chain key's) sits outside the log too, and changed,
    /// no member could log in (found by an outside walk: verify passed).
    public init(names: ClaimNames? = nil) { self.names = names }

    /// Counts one event, `isErasedStream` and `key` answering from the same snapshot.
    public mutating func count(
        _ recorded: RecordedEvent, _ fields: HashChain.Fields, isErasedStream: (String) throws -> Bool,
        key: (UserID) throws -> SubjectKey
    ) throws {
        let isSealed = fields.payload.hasPrefix(#"{"$sealed":"#)
        if isSealed { sealed += 1 }
        if let member = recorded.event.erases {
            erasures[member] = erasures[member] ?? recorded.position
            if case .active = try key(member), problem == nil {
                problem = .keyAfterErasure(member: member.description, position: recorded.position)
            }
        }
        if isSealed, let subject = recorded.event.personalData?.subject, try key(subject) == .none, problem == nil {
            problem = .personalKeyMissing(member: subject.description, position: recorded.position)
        }
        if let names, case .emailClaim(.claimed(let claim)) = recorded.event, let address = claim.email.known,
            fields.streamID.hasPrefix("email-hmac-"), names.email(address).rawValue != fields.streamID, problem == nil
        {
            problem = .claimNameWrong(position: recorded.position)
        }
        if try isErasedStream(fields.streamID) {
            clearOfErased += 1
        } else if !isSealed, let subject = recorded.event.personalData?.subject, try key(subject) == .erased {
            clearOfErased += 1
        }
    }

    /// The check, with the members recorded erased and the position of the event that erased each:
    /// each must be the event of the log that closed that member's account, which only a count of
    /// the `wholeLog` can tell (a replay stopped at an unreadable event says so in its own check).
    public func check(erasedMembers: [(subject: String, position: Int64)], wholeLog: Bool) -> AuditCheck {
        let unclosed = erasedMembers.sorted { $0.position < $1.position }.first { member in
            guard wholeLog else { return false }
            return
                UserID(member.subject).map { erasures[$0] != member.position } ?? true
        }
        if let problem = problem ?? unclosed.map({ .erasedWithoutClosing(member: $0.subject, position: $0.position) }) {
            return AuditCheck(.personalData, passed: false, problem)
        }
        return AuditCheck(
            .personalData, passed: true, .personalData(sealed: sealed, erasedMembers: erasedMembers.count, inClear: clearOfErased))
    }
}
