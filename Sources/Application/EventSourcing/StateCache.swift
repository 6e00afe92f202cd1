import Foundation

/// Aggregate states already folded, by stream, so loading reads only the events appended since.
/// Events never change, so a state cached at version v followed by the events after v is the
/// state now, whichever process appended them. Bounded: the least recently used go first.
public final class StateCache: @unchecked Sendable {  // every access to `table` holds `lock`
    private struct Entry {
        let state: any Sendable
        let version: Int64
        var used: UInt64
    }

    private struct Table {
        var entries: [AggregateStream: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let lock = NSLock()
    private var table = Table()
    private let capacity: Int

    /// A cache of at most `capacity` streams' states.
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// The cached state of `stream` as `A` folds it, and the version it is at.
    func state<A: EventSourced>(_: A.Type, _ stream: StreamName) -> (state: A.State, version: Int64)? {
        let key = AggregateStream(A.self, stream)
        return lock.withLock {
            table.clock += 1
            guard var entry = table.entries[key], let state = entry.state as? A.State else { return nil }
            entry.used = table.clock
            table.entries[key] = entry
            return (state, entry.version)
        }
    }

    /// Keeps `state` at `version` unless a newer one is kept already.
    func keep<A: EventSourced>(_: A.Type, _ stream: StreamName, _ state: A.State, version: Int64) {
        let key = AggregateStream(A.self, stream)
        lock.withLock {
            table.clock += 1
            if let kept = table.entries[key], kept.version >= version { return }
            table.entries[key] = Entry(state: state, version: version, used: table.clock)
            if table.entries.count > capacity {
                // Drop the least recently used quarter at once, so eviction stays rare.
                let cutoff = table.entries.values.map(\.used).sorted()[table.entries.count / 4]
                table.entries = table.entries.filter { $0.value.used > cutoff }
            }
        }
    }

    /// Forgets every state cached for `stream` (a closed member's: no personal data stays in memory).
    func forget(_ stream: StreamName) {
        lock.withLock { table.entries = table.entries.filter { $0.key.stream != stream } }
    }

    /// How many streams are cached.
    var count: Int { lock.withLock { table.entries.count } }
}
