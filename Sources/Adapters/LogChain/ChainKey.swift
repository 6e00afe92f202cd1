import Application
import Crypto
import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The secret that keys the hash chain and signs anchors, kept in a file outside the database
/// (`<database>.key` unless configured): whoever can rewrite the database file but cannot read
/// this one cannot compute a chain that verifies. The file also records the first position it
/// keys; the events before it were chained without a key and stay verifiable as they were.
public struct ChainKey: Sendable, Equatable {
    public let path: String
    /// The first position chained with the key (the head when the key was made, plus one).
    public let keyedFrom: Int64
    package let secret: [UInt8]

    /// A short fingerprint of the secret, recorded in the database to recognise its key file.
    package var id: String { hex(derived("shelfmark key id v1", bytes: 16)) }

    /// A key for one purpose (chaining, signing anchors), derived from the secret with HKDF-SHA-256.
    package func derived(_ purpose: String, bytes: Int = 32) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret), info: Data(purpose.utf8), outputByteCount: bytes)
    }

    var text: String {
        """
        # Shelfmark chain key: it keys the log's hash chain from position keyed-from on and signs its anchors.
        # Keep it secret, and keep it: without it the keyed events cannot be verified and the database will not open.
        shelfmark-chain-key 1
        keyed-from \(keyedFrom)
        secret \(hex(secret))

        """
    }

    /// The key in the file at `path`; nil when there is no such file.
    package static func load(_ path: String) throws -> ChainKey? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ChainKeyError(.keyFileUnreadable(path: path))
        }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard fields["shelfmark-chain-key"] == "1", let from = fields["keyed-from"].flatMap({ Int64($0) }), from >= 1,
            let secret = fields["secret"].flatMap(unhex), secret.count == 32
        else { throw ChainKeyError(.notAKeyFile(path: path)) }
        return ChainKey(path: path, keyedFrom: from, secret: secret)
    }

    /// A new random key keying from `keyedFrom`, written to `path` (mode 0600) unless a file is
    /// there already, in which case that file's key is returned: two processes opening one new
    /// library at once agree on one key.
    package static func create(at path: String, keyedFrom: Int64) throws -> ChainKey {
        let key = ChainKey(path: path, keyedFrom: keyedFrom, secret: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        return try key.write(to: path) ? key : try load(path) ?? key
    }

    /// The same key in another file (a replayed copy of the library carries its key).
    package func copy(to path: String) throws -> ChainKey {
        let copy = ChainKey(path: path, keyedFrom: keyedFrom, secret: secret)
        guard try copy.write(to: path) else { throw ChainKeyError(.keyFileExists(path: path)) }
        return copy
    }

    /// Writes the whole file under a temporary name, flushed, then links it into place, which
    /// fails if a file is there: a reader never sees half a key. False when one was there.
    private func write(to path: String) throws -> Bool {
        let temporary = path + ".tmp-\(UUID().uuidString)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw ChainKeyError(.keyFileUncreatable(path: path)) }
        defer { unlink(temporary) }
        let bytes = Array(text.utf8)
        let written = writeAll(fd, bytes)
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else { throw ChainKeyError(.keyFileUnwritable(path: path)) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw ChainKeyError(.keyFileUncreatable(path: path))
        }
        let folder = open(folder(of: path), O_RDONLY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        return true
    }
}

/// The folder a path names a file in: what comes before its last `/` ("." for a bare name, "/" at
/// the root). Written out: Foundation's `deletingLastPathComponent` trapped on a one-character name
/// (found by an outside test: `backup --to X` crashed).
package func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let folder = path[..<slash]
    return folder.isEmpty ? "/" : String(folder)
}

/// Writes the bytes to the descriptor; the number written.
private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

/// The chain key cannot be used with this database; the catalogue says it in one line.
public struct ChainKeyError: MessageConvertible, Sendable {
    public let problem: IntegrityProblem
    package init(_ problem: IntegrityProblem) { self.problem = problem }
    public var message: Message { .integrity(problem) }
}

/// Lower-case hex of bytes.
package func hex(_ bytes: some Sequence<UInt8>) -> String { HexText.lowercase(bytes) }

package func hex(_ key: SymmetricKey) -> String { key.withUnsafeBytes { hex($0) } }

/// The bytes of lower-case hex text; nil when it is not.
package func unhex(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: utf8.count, by: 2) {
        guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
        bytes.append(high << 4 | low)
    }
    return bytes
}
