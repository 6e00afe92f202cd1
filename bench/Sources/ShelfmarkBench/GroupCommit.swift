import Application
import Composition
import Domain
import Foundation
import LogChain
import PostgresStore
import SQLiteStore
import Security

/// Ids as the server makes them.
let benchIDs = RandomIDs()

/// The durability scenarios run at: synchronous=FULL unless BENCH_SYNC says otherwise (for profiling).
let benchDurability = ProcessInfo.processInfo.environment["BENCH_SYNC"].flatMap(Durability.init(rawValue:)) ?? .full

/// A book.added event with fresh ids, about the size of a real one.
func bookAdded(_ n: Int, id: BookID = BookID(benchIDs.next())) -> PendingEvent {
    let details = BookDetails(title: "Benchmark book \(n)", authors: ["Author \(n % 97)"])
    return PendingEvent(
        .book(.added(BookAdded(book: id, details: details, copies: 1 + n % 3))),
        EventMetadata(eventID: benchIDs.next(), recordedAt: Date(), actor: "bench", correlationID: benchIDs.next()))
}

/// Scenario 2: `writers` tasks append one event each to their own new streams until `total` events are written.
/// With `projecting: false`, the bare log: the events alone, no read model updated. With `postgres`
/// (a server's URL), a fresh database there in one library (the read models always projected).
func groupCommit(writers: Int, total: Int, folder: URL, projecting: Bool = true, postgres: String? = nil) async throws -> (
    eventsPerSecond: Double, p50: Double, p99: Double
) {
    let store: any EventStore
    let close: () async -> Void
    if let postgres {
        let url = try freshDatabase(on: postgres)
        let library = try await PostgresLibrary.open(PostgresAddress(url), cipher: SwiftCryptoPersonalCipher())
        (store, close) = (
            library.eventStore,
            {
                await library.close()
                try? dropDatabase(url, on: postgres)
            }
        )
    } else {
        let database = try LibraryDatabase(
            path: folder.appendingPathComponent("group-\(writers)-\(UUID()).sqlite").path, durability: benchDurability,
            cipher: SwiftCryptoPersonalCipher(), projecting: projecting)
        (store, close) = (database.eventStore, { try? database.close() })
    }
    let perWriter = total / writers
    let start = DispatchTime.now().uptimeNanoseconds
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for w in 0..<writers {
            group.addTask {
                var latencies: [Double] = []
                for i in 0..<perWriter {
                    let began = DispatchTime.now().uptimeNanoseconds
                    try await store.append([StreamAppend(StreamName("bench-\(w)-\(i)"), expected: .noStream, events: [bookAdded(i)])])
                    latencies.append(milliseconds(since: began))
                }
                return latencies
            }
        }
        return try await group.reduce(into: [Double]()) { $0 += $1 }
    }
    let elapsed = milliseconds(since: start) / 1000
    await close()
    return (Double(latencies.count) / elapsed, percentile(latencies, 0.5), percentile(latencies, 0.99))
}

/// Nanoseconds the writer spends chaining one event (its own digest function over a ~300-byte canonical encoding).
func hashCost(events: Int = 200_000) -> Double {
    let canonical = (0..<events).map { n in
        "\(n)\nbook-\(benchIDs.next())\n1\nbook.added.v1\n{\"book\":\"\(benchIDs.next())\",\"copies\":1,\"details\":{\"authors\":[\"Author\"],\"categories\":[],\"title\":\"Benchmark book \(n)\"}}\n\(benchIDs.next())\n2026-11-22T00:00:00.000Z\nbench\n\(benchIDs.next())\n\n"
    }
    var previous = String(repeating: "0", count: 64)
    let start = DispatchTime.now().uptimeNanoseconds
    for text in canonical {
        previous = HashChain.digest(previous + "\n" + text)
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(events)
}
