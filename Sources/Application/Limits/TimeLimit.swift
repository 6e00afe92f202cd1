/// A call that did not finish within its time limit.
public struct TimeLimitExceeded: Error, Equatable, Sendable {
    /// The limit that passed.
    public let limit: Duration
    public init(limit: Duration) { self.limit = limit }
}

/// Runs `operation`, cancelling it and throwing `TimeLimitExceeded` when `limit` passes first.
///
/// The outside-world adapters bound each call with it, since AsyncHTTPClient's own deadline stops
/// at the response's head: a server that sends the head and then stalls the body would otherwise
/// hold the caller for as long as it likes.
public func withTimeLimit<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard case let value?? = try await group.next() else { throw TimeLimitExceeded(limit: limit) }
        return value
    }
}
