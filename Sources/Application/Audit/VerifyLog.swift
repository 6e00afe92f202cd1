import Domain

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

/// The history of one aggregate: every event of its stream in order. Librarians and the operator only.
public struct AggregateHistory: Sendable {
    let archive: any LogArchive
    let claims: ChangeRole

    public init(archive: any LogArchive, claims: ChangeRole) {
        self.archive = archive
        self.claims = claims
    }

    /// What to show the history of.
    public enum Subject: Sendable {
        case book(String), member(email: String), loan(String), stream(String)
    }

    public func execute(_ subject: Subject, by principal: Principal) async throws -> [HistoryEntry] {
        try principal.requireLibrarian()
        let stream: StreamName
        switch subject {
        case .book(let id): stream = .book(try BookID.parse(id))
        case .member(let email): stream = .user(try await claims.user(email: email))
        case .loan(let id):
            guard let loan = LoanID(id) else { throw NotFound("loan", id) }
            stream = .loan(loan)
        case .stream(let name): stream = StreamName(name)
        }
        let entries = try await archive.history(stream)
        if entries.isEmpty { throw NotFound("stream", stream.rawValue) }
        return entries
    }
}
