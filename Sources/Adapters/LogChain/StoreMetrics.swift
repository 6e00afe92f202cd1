import Application
import CoreMetrics

/// What the event store and the search cache count, through swift-metrics (the factory given to
/// `LibraryDatabase` or `PostgresLibrary`; no-op unless the composition root gives a real one).
/// Both stores count alike.
package struct StoreMetrics: Sendable {
    /// Appends committed: one per command's atomic append, whatever the streams it writes.
    package let appends: Counter
    /// Events committed.
    package let events: Counter
    /// Appends refused because a stream had moved on (`AppendConflict`); the command runner runs
    /// the command again after each, so this is also the count of reruns.
    package let conflicts: Counter
    /// Appends per group-commit transaction, committed or not.
    package let batchSizes: Recorder
    /// Search cache look-ups that found a stored answer (fresh or not), and those that found none.
    package let cacheHits: Counter
    package let cacheMisses: Counter

    package init(_ factory: any MetricsFactory) {
        appends = Counter(label: "shelfmark_appends_total", factory: factory)
        events = Counter(label: "shelfmark_events_appended_total", factory: factory)
        conflicts = Counter(label: "shelfmark_append_conflicts_total", factory: factory)
        batchSizes = Recorder(label: "shelfmark_group_commit_batch_size", factory: factory)
        cacheHits = Counter(label: "shelfmark_search_cache_lookups_total", dimensions: [("result", "hit")], factory: factory)
        cacheMisses = Counter(label: "shelfmark_search_cache_lookups_total", dimensions: [("result", "miss")], factory: factory)
    }

    /// Counts one committed transaction: its size in appends, the events of each append that
    /// succeeded, and the appends refused for a stream that had moved on.
    package func record(_ batch: [PendingAppend], _ results: [Result<Int64, any Error>]) {
        var committed: [Int] = []
        var refused = 0
        for (append, result) in zip(batch, results) {
            switch result {
            case .success: committed.append(append.eventCount)
            case .failure(let error): if error is AppendConflict { refused += 1 }
            }
        }
        record(batch: batch.count, committedEvents: committed, conflicts: refused)
    }

    private func record(batch: Int, committedEvents: [Int], conflicts refused: Int) {
        batchSizes.record(batch)
        if !committedEvents.isEmpty {
            appends.increment(by: committedEvents.count)
            events.increment(by: committedEvents.reduce(0, +))
        }
        if refused > 0 { conflicts.increment(by: refused) }
    }
}
