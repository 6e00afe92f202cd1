/// Proves the log unaltered, or names what breaks. Librarians and the operator only.
public struct VerifyLog: Sendable {
    let verifier: any LogVerifier

    public init(verifier: any LogVerifier) { self.verifier = verifier }

    /// Every check; the log holds when all passed.
    public func execute(by principal: Principal, progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) async throws
        -> [AuditCheck]
    {
        try principal.requireLibrarian()
        return try await verifier.verify(progress: progress)
    }
}

/// Exports the log, or verifies an export. Exporting is for librarians and the operator; verifying
/// a file needs no database rights.
public struct ExportLog: Sendable {
    let archive: any LogArchive

    public init(archive: any LogArchive) { self.archive = archive }

    public func execute(from position: Int64 = 1, by principal: Principal, to write: (String) throws -> Void) async throws -> Int64 {
        try principal.requireLibrarian()
        guard position >= 1 else { throw InvalidInput("from", "must be a position, 1 or more") }
        return try await archive.export(from: position, to: write)
    }

    public func verify(lines: [String]) -> [AuditCheck] { archive.verifyExport(lines: lines) }
}
