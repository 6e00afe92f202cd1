import Foundation

/// Answers whether storage is reachable.
public protocol HealthCheck: Sendable {
    /// The position of the newest event in the log; throws when storage does not answer.
    func headPosition() async throws -> Int64
}

/// Rebuilds read models from the log.
public protocol ReadModelRebuilder: Sendable {
    /// Replays the whole log into fresh read models and switches to them; reports (done, total) as it goes.
    /// Returns the number of events replayed.
    func rebuild(progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64
}
