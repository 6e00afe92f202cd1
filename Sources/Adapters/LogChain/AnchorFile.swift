import Application
import Foundation

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
public enum AnchorFile {
    public static func signedText(_ anchor: LogAnchor) -> String {
        "shelfmark anchor v1\n\(anchor.position)\n\(anchor.hash)\n\(anchor.time)\n"
    }

    /// Appends one line in a single write on a descriptor opened for appending, then flushes it:
    /// serve and the CLI appending to one file never interleave their lines.
    public static func append(_ anchor: LogAnchor, signature: String, to path: String) throws {
        let bytes = Array("\(anchor.position) \(anchor.hash) \(anchor.time) \(signature)\n".utf8)
        // Only a file: a pipe would hold the command until someone read it (found by an outside walk).
        if let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType, type != .typeRegular {
            throw AnchorFileError(.anchorFileUnwritable(path: path))
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard fd >= 0 else { throw AnchorFileError(.anchorFileUnwritable(path: path)) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else { throw AnchorFileError(.anchorFileUnwritable(path: path)) }
    }

    /// The anchor file's lines as read now; nil when there is nothing to check.
    public struct Loaded: Sendable {
        let path: String
        /// nil when the file is missing or unreadable.
        let lines: [Substring]?
        let required: Bool
    }

    /// Reads the file before verify opens its snapshot: every anchor read then names a head
    /// committed before the snapshot, which the snapshot therefore holds if the log is intact.
    public static func load(_ source: AnchorSource) -> Loaded? {
        let (path, required): (String, Bool)
        switch source {
        case .none: return nil
        case .file(let file): (path, required) = (file, true)
        case .ifPresent(let file): (path, required) = (file, false)
        }
        let text = try? String(contentsOfFile: path, encoding: .utf8)
        // A file that is there but cannot be read is no missing file (found by an outside walk: a
        // byte that is not UTF-8 appended to the data folder's anchors made them "no anchor file yet").
        let there = FileManager.default.fileExists(atPath: path)
        return Loaded(
            path: path, lines: text.map { $0.split(separator: "\n", omittingEmptySubsequences: false) }, required: required || there)
    }

    /// One line, parsed: nil when it is not an anchor.
    static func parse(_ line: Substring) -> (LogAnchor, signature: String)? {
        let parts = line.split(separator: " ").map(String.init)
        guard parts.count == 4, let position = Int64(parts[0]), position >= 0, unhex(parts[1])?.count == 32,
            unhex(parts[3])?.count == 32
        else { return nil }
        return (LogAnchor(position: position, hash: parts[1], time: parts[2]), parts[3])
    }

    /// The anchors of a file as verify reads them: each line's signature checked; the heads they
    /// name, which the store then looks up in its snapshot (`positions`), and `check` says the rest.
    public struct Read: Sendable {
        fileprivate let loaded: Loaded
        fileprivate var problems: [AuditFinding] = []
        fileprivate var held: [(anchor: LogAnchor, line: Int)] = []

        /// The positions whose hashes the check needs.
        public var positions: [Int64] { held.map(\.anchor.position).filter { $0 > 0 } }

        /// Verify's check, given the hashes the snapshot holds at `positions` (absent: not in the log) and its head.
        public func check(hashes: [Int64: String], head: Int64) -> AuditCheck {
            guard loaded.lines != nil else {
                if loaded.required { return AuditCheck(.anchors, passed: false, .anchorFileUnreadable(path: loaded.path)) }
                return AuditCheck(.anchors, passed: true, .noAnchorFile(path: loaded.path))
            }
            var problems = self.problems
            let lacking = held.lazy.compactMap { anchor, line in
                Self.lacking(anchor, hashes, head).map {
                    AuditFinding.headLacking(position: anchor.position, time: anchor.time, line: line, why: $0)
                }
            }.first
            if let lacking { problems.insert(lacking, at: 0) }
            guard problems.isEmpty else {
                return AuditCheck(.anchors, passed: false, problems.count == 1 ? problems[0] : .all(Array(problems.prefix(3))))
            }
            guard let newest = held.map(\.anchor).max(by: { $0.position < $1.position }) else {
                return AuditCheck(.anchors, passed: true, .noAnchorsYet(path: loaded.path))
            }
            return AuditCheck(
                .anchors, passed: true, .anchorsHeld(count: held.count, path: loaded.path, furthest: newest.position, time: newest.time))
        }

        /// Why the log does not hold this anchored head; nil when it does.
        private static func lacking(_ anchor: LogAnchor, _ hashes: [Int64: String], _ head: Int64) -> AuditFinding? {
            if anchor.position == 0 { return anchor.hash == HashChain.genesis ? nil : .emptyLogHash }
            guard let hash = hashes[anchor.position] else { return .logCut(head: head) }
            return hash == anchor.hash ? nil : .logRewritten
        }
    }

    /// Every line parsed and its signature checked with the chain's key.
    public static func read(_ loaded: Loaded, _ chain: ChainHasher) -> Read {
        var read = Read(loaded: loaded)
        for (index, line) in (loaded.lines ?? []).enumerated() where !line.isEmpty && !line.hasPrefix("#") {
            guard let (anchor, signature) = parse(line) else {
                read.problems.append(.notAnAnchor(line: index + 1, path: loaded.path))
                continue
            }
            guard let expected = chain.sign(signedText(anchor)) else {
                read.problems.append(.anchorsUncheckable)
                break
            }
            guard expected == signature else {
                read.problems.append(.wrongSignature(line: index + 1, position: anchor.position))
                continue
            }
            read.held.append((anchor, index + 1))
        }
        return read
    }
}

/// The anchor file cannot be written; the catalogue says it in one line.
public struct AnchorFileError: MessageConvertible, Sendable {
    public let problem: IntegrityProblem
    public init(_ problem: IntegrityProblem) { self.problem = problem }
    public var message: Message { .integrity(problem) }
}
