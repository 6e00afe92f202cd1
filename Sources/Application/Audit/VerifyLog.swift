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
