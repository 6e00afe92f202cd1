/// An answer that is the same for every connection (`GET_BOOKS`: the whole catalogue, for
/// anyone) and costly to work out, worked out once for all the connections that ask while none
/// has started yet: one computation at a time, and every asker gets one begun after it asked (so
/// never older than the asker's own last change). A crowd of clients asking again and again
/// costs one catalogue pass at a time, not one each.
actor SharedAnswer {
    /// The computation not begun yet, which askers join.
    private var waiting: Task<String, any Error>?
    /// The last computation: the next one begins after it.
    private var last: Task<String, any Error>?
    /// How many askers joined a computation another had asked for (for tests).
    private(set) var joined = 0

    /// The answer `compute` gives, in a computation begun after this call.
    func answer(_ compute: @escaping @Sendable () async throws -> String) async throws -> String {
        if let waiting {
            joined += 1
            return try await waiting.value
        }
        let previous = last
        let computation = Task {
            _ = await previous?.result
            await self.begun()
            return try await compute()
        }
        waiting = computation
        last = computation
        return try await computation.value
    }

    /// The waiting computation has begun: later askers need a new one.
    private func begun() { waiting = nil }
}
