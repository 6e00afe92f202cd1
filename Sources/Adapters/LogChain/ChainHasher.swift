import Application
import Crypto
import Foundation

/// How the chain hashes each event: as `HashChain.hash` (SHA-256) before the chain key's first
/// position, or everywhere when there is no key; from it on, HMAC-SHA-256 over the same text
/// with a key derived from the chain key. Immutable: each hash starts from a copy of the keyed
/// HMAC state, so sharing one across threads is safe.
public struct ChainHasher: @unchecked Sendable {
    /// The chain of a library without a chain key.
    public static let unkeyed = ChainHasher(key: nil)

    /// The chain key, if the library has one.
    public let key: ChainKey?
    private let mac: HMAC<SHA256>?

    /// The chain keyed with `key` from its first position on, or unkeyed.
    public init(key: ChainKey?) {
        self.key = key
        mac = key.map { HMAC<SHA256>(key: $0.derived("shelfmark chain v1")) }
    }

    /// The first keyed position; past every position when there is no key.
    public var keyedFrom: Int64 { key?.keyedFrom ?? .max }

    /// The hash of one event chained to `previous`.
    public func hash(previous: String, _ fields: HashChain.Fields) -> String {
        guard var mac, fields.position >= keyedFrom else { return HashChain.hash(previous: previous, fields) }
        mac.update(data: fields.chained(to: previous))
        return hex(mac.finalize())
    }

    /// An anchor's signature: HMAC-SHA-256 over its text with a key derived for anchors; nil without a key.
    public func sign(_ text: String) -> String? {
        key.map { hex(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: $0.derived("shelfmark anchor v1"))) }
    }

    /// How positions 1…`head` are chained.
    public func describe(head: Int64) -> AuditFinding {
        let plain = min(head, keyedFrom - 1)
        if head == 0 { return .noEvents }
        if plain == 0 { return .allKeyed(head: head) }
        if plain == head { return key == nil ? .chainedWithoutKey(head: head) : .chainedBeforeKeying(head: head) }
        return .partlyKeyed(plain: plain, head: head)
    }

    /// The secret naming claim streams when the library has a chain key (derived from it, so the
    /// database alone cannot tell which address a stream claims); nil without one.
    package var claimSecret: [UInt8]? { key.map { $0.derived("shelfmark claim names v1").withUnsafeBytes { Array($0) } } }
}

/// The chain key as a database records it (its first keyed position and fingerprint), so that a
/// log with keyed events is never opened without its key file, or with another one. Each store
/// keeps the record in a table of its own; the decisions are these, the same for every store.
package struct RecordedChainKey: Equatable, Sendable {
    package let keyedFrom: Int64
    package let keyID: String
    package init(keyedFrom: Int64, keyID: String) {
        self.keyedFrom = keyedFrom
        self.keyID = keyID
    }

    /// The chain for a database that records `recorded` and whose log ends at `head`: no key file
    /// given, unkeyed; else the key file's key, created on first use to key from the next position
    /// (`toRecord`: the store records it in the same transaction). Refuses, in one line, a key
    /// file that is missing, or is not the one the database records.
    package static func open(keyFile: String?, recorded: RecordedChainKey?, head: Int64) throws -> (
        chain: ChainHasher, toRecord: ChainKey?
    ) {
        guard let keyFile else {
            if let recorded { throw ChainKeyError(.keyNeeded(keyedFrom: recorded.keyedFrom)) }
            return (.unkeyed, nil)
        }
        switch (recorded, try ChainKey.load(keyFile)) {
        case (nil, let found):
            // A new key; or one made for this database that a crash kept from being recorded (nothing written since).
            let key = try found ?? ChainKey.create(at: keyFile, keyedFrom: head + 1)
            guard key.keyedFrom == head + 1 else {
                throw ChainKeyError(.keyOfAnotherDatabase(path: keyFile, keyedFrom: key.keyedFrom, head: head))
            }
            return (ChainHasher(key: key), key)
        case (let recorded?, nil):
            throw ChainKeyError(.keyFileMissing(path: keyFile, keyedFrom: recorded.keyedFrom))
        case (let recorded?, let key?):
            if let disagreement = recorded.disagreement(key) { throw ChainKeyError(disagreement) }
            return (ChainHasher(key: key), nil)
        }
    }

    private func disagreement(_ key: ChainKey) -> IntegrityProblem? {
        guard keyedFrom != key.keyedFrom || keyID != key.id else { return nil }
        return .keyDisagrees(path: key.path, fileKeyedFrom: key.keyedFrom, fileKey: key.id, keyedFrom: keyedFrom, key: keyID)
    }

    /// Verify's check that the key in use, its file and the database's record still agree.
    package static func check(_ chain: ChainHasher, recorded: RecordedChainKey?) -> AuditCheck {
        guard let key = chain.key else {
            guard let recorded else { return AuditCheck(.chainKey, passed: true, .noChainKey) }
            return AuditCheck(.chainKey, passed: false, .keyNotInUse(keyedFrom: recorded.keyedFrom))
        }
        guard let recorded else {
            return AuditCheck(.chainKey, passed: false, .keyNotRecorded(path: key.path, keyedFrom: key.keyedFrom))
        }
        if let disagreement = recorded.disagreement(key) { return AuditCheck(.chainKey, passed: false, .keyProblem(disagreement)) }
        guard let onDisk = try? ChainKey.load(key.path) else { return AuditCheck(.chainKey, passed: false, .keyFileGone(path: key.path)) }
        guard onDisk == key else { return AuditCheck(.chainKey, passed: false, .keyFileChanged(path: key.path)) }
        return AuditCheck(.chainKey, passed: true, .keyed(path: key.path, keyedFrom: key.keyedFrom))
    }
}
