import Application
import Foundation
import GRDB
import LogChain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signed checkpoints of the log's head, one line each in a text file outside the database:
/// `<position> <hash> <time> <signature>`, the signature being HMAC-SHA-256, with a key derived
/// from the chain key, over `shelfmark anchor v1\n<position>\n<hash>\n<time>\n`. Verify proves
/// the log still holds every anchored head, so a rewrite or a cut tail made before the anchor is
/// caught even by someone holding the chain key, as long as the anchor file is out of their reach.
enum AnchorFile {
    static func signedText(_ anchor: LogAnchor) -> String { "shelfmark anchor v1\n\(anchor.position)\n\(anchor.hash)\n\(anchor.time)\n" }

    /// Appends one line in a single write on a descriptor opened for appending, then flushes it:
    /// serve and the CLI appending to one file never interleave their lines.
    static func append(_ anchor: LogAnchor, signature: String, to path: String) throws {
        let bytes = Array("\(anchor.position) \(anchor.hash) \(anchor.time) \(signature)\n".utf8)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard fd >= 0 else { throw AnchorFileError(.anchorFileUnwritable(path: path)) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else { throw AnchorFileError(.anchorFileUnwritable(path: path)) }
    }

    /// The anchor file's lines as read now; nil when there is nothing to check.
    struct Loaded {
        let path: String
        /// nil when the file is missing or unreadable.
        let lines: [Substring]?
        let required: Bool
    }

    /// Reads the file before verify opens its snapshot: every anchor read then names a head
    /// committed before the snapshot, which the snapshot therefore holds if the log is intact.
    static func load(_ source: AnchorSource) -> Loaded? {
        let (path, required): (String, Bool)
        switch source {
        case .none: return nil
        case .file(let file): (path, required) = (file, true)
        case .ifPresent(let file): (path, required) = (file, false)
        }
        let text = try? String(contentsOfFile: path, encoding: .utf8)
        return Loaded(path: path, lines: text.map { $0.split(separator: "\n", omittingEmptySubsequences: false) }, required: required)
    }

    /// One line, parsed: nil when it is not an anchor.
    static func parse(_ line: Substring) -> (LogAnchor, signature: String)? {
        let parts = line.split(separator: " ").map(String.init)
        guard parts.count == 4, let position = Int64(parts[0]), position >= 0, unhex(parts[1])?.count == 32,
            unhex(parts[3])?.count == 32
        else { return nil }
        return (LogAnchor(position: position, hash: parts[1], time: parts[2]), parts[3])
    }

    /// Verify's check, in the snapshot: every signature right, every anchored head in the log.
    static func check(_ loaded: Loaded, _ chain: ChainHasher, _ db: Database) throws -> AuditCheck {
        guard let lines = loaded.lines else {
            if loaded.required { return AuditCheck(.anchors, passed: false, .anchorFileUnreadable(path: loaded.path)) }
            return AuditCheck(.anchors, passed: true, .noAnchorFile(path: loaded.path))
        }
        var problems: [AuditFinding] = []
        var firstLacking: AuditFinding?
        var held: [LogAnchor] = []
        for (index, line) in lines.enumerated() where !line.isEmpty && !line.hasPrefix("#") {
            guard let (anchor, signature) = parse(line) else {
                problems.append(.notAnAnchor(line: index + 1, path: loaded.path))
                continue
            }
            guard let expected = chain.sign(signedText(anchor)) else {
                problems.append(.anchorsUncheckable)
                break
            }
            guard expected == signature else {
                problems.append(.wrongSignature(line: index + 1, position: anchor.position))
                continue
            }
            if firstLacking == nil, let missing = try lacking(anchor, db) {
                firstLacking = .headLacking(position: anchor.position, time: anchor.time, line: index + 1, why: missing)
            }
            held.append(anchor)
        }
        if let firstLacking { problems.insert(firstLacking, at: 0) }
        guard problems.isEmpty else {
            return AuditCheck(.anchors, passed: false, problems.count == 1 ? problems[0] : .all(Array(problems.prefix(3))))
        }
        guard let newest = held.max(by: { $0.position < $1.position }) else {
            return AuditCheck(.anchors, passed: true, .noAnchorsYet(path: loaded.path))
        }
        return AuditCheck(
            .anchors, passed: true, .anchorsHeld(count: held.count, path: loaded.path, furthest: newest.position, time: newest.time))
    }

    /// Why the log does not hold this anchored head; nil when it does.
    private static func lacking(_ anchor: LogAnchor, _ db: Database) throws -> AuditFinding? {
        if anchor.position == 0 { return anchor.hash == HashChain.genesis ? nil : .emptyLogHash }
        guard let hash = try String.fetchOne(db, sql: "SELECT hash FROM events WHERE position = ?", arguments: [anchor.position]) else {
            return .logCut(head: try EventRows.head(db))
        }
        return hash == anchor.hash ? nil : .logRewritten
    }
}

extension LibraryDatabase {
    /// Appends a signed checkpoint of the head to the anchor file at `path`.
    public func anchor(to path: String, at time: Date) async throws -> LogAnchor {
        let tip = try pool.readHere { db in try SQLiteHashChain.tip(db) }
        let anchor = LogAnchor(position: tip.position, hash: tip.hash, time: Timestamp.format(time))
        guard let signature = chain.sign(AnchorFile.signedText(anchor)) else {
            throw AnchorFileError(.anchorNeedsKey)
        }
        try AnchorFile.append(anchor, signature: signature, to: path)
        return anchor
    }
}

/// The anchor file cannot be written; the catalogue says it in one line.
public struct AnchorFileError: MessageConvertible, Sendable {
    public let problem: IntegrityProblem
    init(_ problem: IntegrityProblem) { self.problem = problem }
    public var message: Message { .integrity(problem) }
}
