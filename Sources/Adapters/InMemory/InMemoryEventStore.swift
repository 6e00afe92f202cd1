import Application
import Domain
import Foundation
import Synchronization

/// An event store in memory with the same contract as the SQLite one: for tests and throwaway runs.
/// It keeps events in their stored form (personal data sealed with each member's key, as the
/// codec writes it, by the cipher it is given) and reads them back through the codec, so erasure
/// behaves as on SQLite.
public final class InMemoryEventStore: EventStore, Sendable {
    private struct Stored {
        let position: Int64
        let stream: StreamName
        let version: Int64
        let type: String
        let payload: String
        let metadata: EventMetadata
    }

    /// The key table, outside the log.
    private struct KeyTable {
        var keys: [UserID: PersonalKey] = [:]
        var erased: Set<UserID> = []

        func key(_ subject: UserID) -> SubjectKey {
            if let key = keys[subject] { return .active(key) }
            return erased.contains(subject) ? .erased : .none
        }
    }

    private struct State {
        var log: [Stored] = []
        var table = KeyTable()
        /// The receipts of requests with a key, outside the log (`RequestReceipts`).
        var receipts: [String: KeptReceipt] = [:]
    }

    private let state = Mutex(State())
    private let cipher: any PersonalCipher
    /// Claim streams are named with a secret of this store's own, made at start.
    public let claimNames: ClaimNames

    public init(cipher: any PersonalCipher) {
        self.cipher = cipher
        claimNames = ClaimNames(secret: cipher.newKey().bytes, cipher: cipher)
    }

    @discardableResult
    public func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64 {
        let encoded = try appends.map { ($0, try $0.events.map { ($0.metadata, try EventCodec.encoded($0.event)) }) }
        return try state.withLock { [cipher] state in
            var versions: [StreamName: Int64] = [:]
            for append in appends {
                let actual = versions[append.stream] ?? Int64(state.log.lazy.filter { $0.stream == append.stream }.count)
                let last = append.expected.lastEventID
                let ends = last == nil || state.log.last(where: { $0.stream == append.stream })?.metadata.eventID == last
                guard append.expected.isMet(by: actual), ends else {
                    throw AppendConflict(stream: append.stream, expected: append.expected, actual: actual)
                }
                versions[append.stream] = actual
            }
            if let receipt, let kept = state.receipts[receipt.key], !receipt.mayReplace(kept.receipt) {
                throw RequestAlreadyRecorded(key: receipt.key)
            }
            var table = state.table  // kept only when every event is written
            var written: [Stored] = []
            for (append, events) in encoded {
                for (metadata, event) in events {
                    let version = versions[append.stream, default: 0] + 1
                    versions[append.stream] = version
                    written.append(
                        Stored(
                            position: Int64(state.log.count + written.count + 1), stream: append.stream, version: version,
                            type: event.type, payload: try Self.seal(event, &table, cipher), metadata: metadata))
                    if let member = event.erases {
                        table.keys[member] = nil
                        table.erased.insert(member)
                    }
                }
            }
            state.log += written
            state.table = table
            if let receipt, state.receipts[receipt.key]?.receipt != receipt {
                state.receipts[receipt.key] = KeptReceipt(receipt, answer: nil)
            }
            return Int64(state.log.count)
        }
    }

    /// The payload as stored: sealed with its member's key, made with their first sealed event.
    private static func seal(_ event: EventCodec.Encoded, _ table: inout KeyTable, _ cipher: any PersonalCipher) throws -> String {
        guard let subject = event.personal?.subject else { return event.payload }
        switch table.key(subject) {
        case .active(let key): return try EventCodec.sealed(event, key: key, cipher: cipher)
        case .erased: throw PersonalDataOfErasedMember(member: subject)
        case .none:
            let key = cipher.newKey()
            table.keys[subject] = key
            return try EventCodec.sealed(event, key: key, cipher: cipher)
        }
    }

    public func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] {
        try state.withLock { [cipher] state in
            try state.log.filter { $0.stream == stream && $0.version > version }.map { try Self.recorded($0, state, cipher) }
        }
    }

    public func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] {
        try state.withLock { [cipher] state in
            try state.log.dropFirst(Int(max(0, position))).prefix(limit).map { try Self.recorded($0, state, cipher) }
        }
    }

    private static func recorded(_ stored: Stored, _ state: State, _ cipher: any PersonalCipher) throws -> RecordedEvent {
        RecordedEvent(
            position: stored.position, stream: stored.stream, version: stored.version,
            event: try EventCodec.decode(type: stored.type, payload: stored.payload, cipher: cipher, keys: state.table.key),
            metadata: stored.metadata)
    }
}

extension InMemoryEventStore: RequestReceipts {
    public func receipt(_ key: String) async throws -> KeptReceipt? { state.withLock { $0.receipts[key] } }

    public func keep(_ answer: Data, for receipt: RequestReceipt) async throws {
        state.withLock { state in
            if let kept = state.receipts[receipt.key], !receipt.mayReplace(kept.receipt) { return }
            state.receipts[receipt.key] = KeptReceipt(receipt, answer: answer)
        }
    }

    @discardableResult
    public func forget(expiredAt now: Date) async throws -> Int {
        state.withLock { state in
            let expired = state.receipts.filter { $0.value.receipt.expiresAt <= now }.keys
            for key in expired { state.receipts[key] = nil }
            return expired.count
        }
    }
}
