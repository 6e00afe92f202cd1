import Application
import Synchronization

/// An event store in memory with the same contract as the SQLite one: for tests and throwaway runs.
public final class InMemoryEventStore: EventStore, Sendable {
    private let log = Mutex<[RecordedEvent]>([])

    public init() {}

    @discardableResult
    public func append(_ appends: [StreamAppend]) async throws -> Int64 {
        try log.withLock { log in
            var versions: [StreamName: Int64] = [:]
            for append in appends {
                let actual = versions[append.stream] ?? Int64(log.lazy.filter { $0.stream == append.stream }.count)
                guard append.expected.isMet(by: actual) else {
                    throw AppendConflict(stream: append.stream, expected: append.expected, actual: actual)
                }
                versions[append.stream] = actual
            }
            var written: [RecordedEvent] = []
            for append in appends {
                for pending in append.events {
                    let version = versions[append.stream, default: 0] + 1
                    versions[append.stream] = version
                    written.append(
                        RecordedEvent(
                            position: Int64(log.count + written.count + 1), stream: append.stream, version: version,
                            event: pending.event, metadata: pending.metadata))
                }
            }
            log += written
            return Int64(log.count)
        }
    }

    public func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] {
        log.withLock { $0.filter { $0.stream == stream && $0.version > version } }
    }

    public func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] {
        log.withLock { log in Array(log.dropFirst(Int(max(0, position))).prefix(limit)) }
    }
}
