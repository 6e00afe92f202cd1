import Domain
import Foundation

/// Proves the log unaltered, or names what breaks, and anchors it: appends a signed checkpoint of
/// its head to a file the operator may keep elsewhere. Librarians and the operator only.
public struct VerifyLog: Sendable {
    let verifier: any LogVerifier
    let clock: any WallClock
    /// The data folder's anchor file: where anchors go by default, and what verify checks when
    /// it is given no other.
    public let anchorFile: String?

    public init(verifier: any LogVerifier, clock: any WallClock, anchorFile: String? = nil) {
        self.verifier = verifier
        self.clock = clock
        self.anchorFile = anchorFile
    }

    /// Every check; the log holds when all passed. With `anchors`, the log must also hold every
    /// head anchored in that file; without, in the data folder's anchor file if there is one.
    public func execute(
        anchors: String? = nil, by principal: Principal, progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }
    ) async throws -> [AuditCheck] {
        try Authorization.require(.verifyLog, by: principal)
        let source: AnchorSource = anchors.map { .file($0) } ?? anchorFile.map { .ifPresent($0) } ?? .none
        return try await verifier.verify(anchors: source, progress: progress)
    }

    /// Appends a signed checkpoint of the log's head to `file`, else to the data folder's anchor file.
    public func anchor(to file: String? = nil, by principal: Principal) async throws -> (LogAnchor, file: String) {
        try Authorization.require(.anchorLog, by: principal)
        guard let path = file ?? anchorFile else { throw InvalidInput("to", .required) }
        return (try await verifier.anchor(to: path, at: clock.now()), path)
    }
}

/// Exports the log, or verifies an export. Exporting is for librarians and the operator; verifying
/// a file needs no database rights.
public struct ExportLog: Sendable {
    let archive: any LogArchive

    public init(archive: any LogArchive) { self.archive = archive }

    public func execute(from position: Int64 = 1, by principal: Principal, to write: (String) throws -> Void) async throws -> Int64 {
        try Authorization.require(.exportLog, by: principal)
        guard position >= 1 else { throw InvalidInput("from", .tooSmall(min: 1)) }
        return try await archive.export(from: position, to: write)
    }

    public func verify(lines: [String]) -> [AuditCheck] { archive.verifyExport(lines: lines) }
}

/// The history of one aggregate: the events of its stream in order, a page at a time. Librarians and the operator only.
public struct AggregateHistory: Sendable {
    let archive: any LogArchive
    let members: MemberDirectory

    public init(archive: any LogArchive, members: MemberDirectory) {
        self.archive = archive
        self.members = members
    }

    /// What to show the history of.
    public enum Subject: Sendable {
        case book(String), member(email: String), loan(String), stream(String)
    }

    /// One page of the subject's events, oldest first; a subject with no events is not found.
    public func execute(_ subject: Subject, page: PageRequest = .first, by principal: Principal) async throws -> Page<HistoryEntry> {
        try Authorization.require(.showHistory, by: principal)
        let stream: StreamName
        switch subject {
        case .book(let id): stream = .book(try BookID.parse(id))
        case .member(let email): stream = .user(try await members.find(email, by: principal))
        case .loan(let id):
            guard let loan = LoanID(id) else { throw NotFound(.loan, id) }
            stream = .loan(loan)
        case .stream(let name): stream = StreamName(name)
        }
        let entries = try await archive.history(stream, page: page)
        if entries.total == 0 { throw NotFound(.stream, stream.rawValue) }
        return entries
    }
}
