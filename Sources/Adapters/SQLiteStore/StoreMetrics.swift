import CoreMetrics

/// What the event store and the search cache count, through swift-metrics (the factory given to
/// `LibraryDatabase`; no-op unless the composition root gives a real one).
struct StoreMetrics: Sendable {
    /// Appends committed: one per command's atomic append, whatever the streams it writes.
    let appends: Counter
    /// Events committed.
    let events: Counter
    /// Appends refused because a stream had moved on (`AppendConflict`); the command runner runs
    /// the command again after each, so this is also the count of reruns.
    let conflicts: Counter
    /// Appends per group-commit transaction, committed or not.
    let batchSizes: Recorder
    /// Search cache look-ups that found a stored answer (fresh or not), and those that found none.
    let cacheHits: Counter
    let cacheMisses: Counter

    init(_ factory: any MetricsFactory) {
        appends = Counter(label: "shelfmark_appends_total", factory: factory)
        events = Counter(label: "shelfmark_events_appended_total", factory: factory)
        conflicts = Counter(label: "shelfmark_append_conflicts_total", factory: factory)
        batchSizes = Recorder(label: "shelfmark_group_commit_batch_size", factory: factory)
        cacheHits = Counter(label: "shelfmark_search_cache_lookups_total", dimensions: [("result", "hit")], factory: factory)
        cacheMisses = Counter(label: "shelfmark_search_cache_lookups_total", dimensions: [("result", "miss")], factory: factory)
    }

    /// Counts one committed transaction: its size in appends, and of those, the events of each
    /// append that succeeded and the appends that conflicted.
    func record(batch: Int, committedEvents: [Int], conflicts refused: Int) {
        batchSizes.record(batch)
        if !committedEvents.isEmpty {
            appends.increment(by: committedEvents.count)
            events.increment(by: committedEvents.reduce(0, +))
        }
        if refused > 0 { conflicts.increment(by: refused) }
    }
}
