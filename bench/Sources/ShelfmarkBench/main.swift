import Application
import Domain
import Foundation
import SQLiteStore
#if canImport(Glibc)
import Glibc
#endif

// Shelfmark's benchmarks: group commit at 1, 8 and 64 writers on synchronous=FULL, the disk's
// fdatasync rate as the physical bound, and the cost of the hash chain per event.

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// fdatasync calls per second on the folder's disk: the ceiling of durable commits.
func fdatasyncRate(in folder: URL, seconds: Double = 2) -> Double {
    let path = folder.appendingPathComponent("fsync.probe").path
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    defer { close(fd); unlink(path) }
    var block = [UInt8](repeating: 7, count: 4096)
    let start = Date()
    var count = 0
    while Date().timeIntervalSince(start) < seconds {
        _ = pwrite(fd, &block, block.count, 0)
        fdatasync(fd)
        count += 1
    }
    return Double(count) / Date().timeIntervalSince(start)
}

func event(_ n: Int) -> PendingEvent {
    let id = BookID(UUID())
    let details = BookDetails(title: "Benchmark book \(n)", authors: ["Author \(n % 97)"])
    return PendingEvent(
        .book(.added(BookAdded(book: id, details: details, copies: 1 + n % 3))),
        EventMetadata(eventID: UUID(), recordedAt: Date(), actor: "bench", correlationID: UUID()))
}

/// `writers` tasks append one event each to their own new streams until `total` events are written.
func groupCommit(writers: Int, total: Int, folder: URL) async throws -> (eventsPerSecond: Double, p50: Double, p99: Double) {
    let path = folder.appendingPathComponent("group-\(writers)-\(UUID()).sqlite").path
    let database = try LibraryDatabase(path: path, durability: .full)
    defer { try? database.close() }
    let store = database.eventStore
    let perWriter = total / writers
    let start = Date()
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for w in 0..<writers {
            group.addTask {
                var latencies: [Double] = []
                for i in 0..<perWriter {
                    let began = Date()
                    try await store.append([StreamAppend(StreamName("bench-\(w)-\(i)"), expected: .noStream, events: [event(i)])])
                    latencies.append(Date().timeIntervalSince(began) * 1000)
                }
                return latencies
            }
        }
        return try await group.reduce(into: [Double]()) { $0 += $1 }
    }
    let elapsed = Date().timeIntervalSince(start)
    return (Double(latencies.count) / elapsed, percentile(latencies, 0.5), percentile(latencies, 0.99))
}

/// Nanoseconds the writer spends chaining one event (its own digest function over a ~300-byte canonical encoding).
func hashCost(events: Int = 200_000) -> Double {
    let canonical = (0..<events).map { n in
        "\(n)\nbook-\(UUID())\n1\nbook.added.v1\n{\"book\":\"\(UUID())\",\"copies\":1,\"details\":{\"authors\":[\"Author\"],\"categories\":[],\"title\":\"Benchmark book \(n)\"}}\n\(UUID())\n2026-11-22T00:00:00.000Z\nbench\n\(UUID())\n\n"
    }
    var previous = String(repeating: "0", count: 64)
    let start = DispatchTime.now().uptimeNanoseconds
    for text in canonical {
        previous = HashChain.digest(previous + "\n" + text)
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(events)
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-bench-\(UUID())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let runs = Int(ProcessInfo.processInfo.environment["BENCH_RUNS"] ?? "3") ?? 3

let fsyncs = median((0..<runs).map { _ in fdatasyncRate(in: folder) })
var rows: [String] = []
rows.append("| disk fdatasync/s (physical bound of durable commits) | \(Int(fsyncs)) | | | |")
var perEventAt64 = 0.0
for writers in [1, 8, 64] {
    var results: [(eventsPerSecond: Double, p50: Double, p99: Double)] = []
    for _ in 0..<runs { results.append(try await groupCommit(writers: writers, total: writers == 1 ? 300 : 4_096, folder: folder)) }
    let eps = median(results.map(\.eventsPerSecond))
    if writers == 64 { perEventAt64 = 1e9 / eps }
    rows.append(String(format: "| group commit, %d writers, synchronous=FULL | %.0f events/s | p50 %.2f ms | p99 %.2f ms | %.1f× fdatasync/s |",
                       writers, eps, median(results.map(\.p50)), median(results.map(\.p99)), eps / fsyncs))
}
let hashNanos = median((0..<runs).map { _ in hashCost() })
rows.append(String(format: "| hash chain, SHA-256 per event | %.0f ns/event | | | %.1f%% of an append's time at 64 writers |",
                   hashNanos, 100 * hashNanos / perEventAt64))

let table = (["| scenario | result | p50 | p99 | ratio |", "|---|---|---|---|---|"] + rows).joined(separator: "\n")
print(table)
let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
let results = "# Benchmark results\n\nLast run: \(Date().formatted(.iso8601)), medians of \(runs) runs, release build.\nMachine: \(machine).\n\n\(table)\n"
try results.write(toFile: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "RESULTS.md", atomically: true, encoding: .utf8)
