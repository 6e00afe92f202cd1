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
        do {
            return (try await verifier.anchor(to: path, at: clock.now()), path)
        } catch let error as any MessageConvertible {
            // A file named on the command line that cannot take a line is the caller's input, said
            // as such (an outside walk: a folder or a pipe was an internal error, exit 70).
            guard file != nil, case .integrity(.anchorFileUnwritable) = error.message else { throw error }
            throw InvalidInput("to", .fileUnusable(path))
        }
    }
}

/// Exports the log, or verifies an export. Exporting is for librarians and the operator; verifying
/// a file needs no database rights.
public struct ExportLog: Sendable {
    let archive: any LogArchive

    public init(archive: any LogArchive) { self.archive = archive }

    /// Writes the log from `position` on; secrets redacted unless `secrets` is `.included`, which
    /// only the operator may ask for (`Authorization.requireSecrets`).
    public func execute(
        from position: Int64 = 1, secrets: ExportedSecrets = .redacted, by principal: Principal, to write: (String) throws -> Void
    ) async throws -> Int64 {
        try Authorization.require(.exportLog, by: principal)
        if secrets == .included { try Authorization.requireSecrets(by: principal) }
        guard position >= 1 else { throw InvalidInput("from", .tooSmall(min: 1)) }
        return try await archive.export(from: position, secrets: secrets, to: write)
    }

    public func verify(lines: [String]) -> [AuditCheck] { archive.verifyExport(lines: lines) }
}
