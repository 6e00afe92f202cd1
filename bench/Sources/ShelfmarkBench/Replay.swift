import Application
import Domain
import Foundation
import SQLiteStore
import Security

/// Writes a log of `events` events (books added, then walk-in loans lent and returned, 4 events a
/// cycle) straight through the event store, synchronous=OFF, in large appends; the inline
/// projections keep the read models as `serve` would find them.
func buildLog(events target: Int, at path: String) async throws {
    let database = try LibraryDatabase(path: path, durability: .off, cipher: SwiftCryptoPersonalCipher())
    defer { try? database.close() }
    let store = database.eventStore
    let books = target / 10
    var ids: [BookID] = []
    var pending: [StreamAppend] = []
    var written = 0
    func flush() async throws {
        if pending.isEmpty { return }
        try await store.append(pending)
        pending = []
    }
    func meta() -> EventMetadata { EventMetadata(eventID: benchIDs.next(), recordedAt: Date(), actor: "bench", correlationID: benchIDs.next()) }
    for n in 0..<books {
        let id = BookID(benchIDs.next())
        ids.append(id)
        pending.append(StreamAppend(.book(id), expected: .noStream, events: [bookAdded(n, id: id)]))
        written += 1
        if pending.count == 2_000 { try await flush() }
    }
    try await flush()
    var bookVersions = [Int64](repeating: 1, count: books)
    var cycle = 0
    while written + 4 <= target {
        let index = cycle % books
        let book = ids[index]
        let loan = LoanID(benchIDs.next())
        let now = Date()
        let opened = LoanOpened(loan: loan, book: book, bookTitle: "Benchmark book \(index)", borrower: nil,
                                borrowerName: "Walk-in \(cycle % 500)", lentAt: now, dueAt: now.addingTimeInterval(14 * 86_400))
        pending.append(StreamAppend(.book(book), expected: .exactly(bookVersions[index]), events: [
            PendingEvent(.book(.copyLent(CopyMovement(book: book, loan: loan, onLoan: 1))), meta()),
            PendingEvent(.book(.copyReturned(CopyMovement(book: book, loan: loan, onLoan: 0))), meta()),
        ]))
        pending.append(StreamAppend(.loan(loan), expected: .noStream, events: [
            PendingEvent(.loan(.opened(opened)), meta()),
            PendingEvent(.loan(.returned(LoanReturned(loan: loan, book: book, borrower: nil, at: now))), meta()),
        ]))
        bookVersions[index] += 2
        written += 4
        cycle += 1
        // One book's stream may appear once per append: flush before the cycle wraps around.
        if pending.count >= 1_000 || cycle % books == 0 { try await flush() }
    }
    try await flush()
}

/// Scenario 4 in a child process (`ShelfmarkBench replay-child DB`), so its peak RSS is the replay's alone.
/// A log kept by BENCH_LOG was keyed by the start-up scenario's server (its `.key` beside it): the
/// child opens it with that key, as `serve` would.
func replayChild(_ path: String) async throws {
    let key = path + ".key"
    let database = try LibraryDatabase(
        path: path, durability: .full, keyFile: FileManager.default.fileExists(atPath: key) ? key : nil,
        cipher: SwiftCryptoPersonalCipher())
    defer { try? database.close() }
    let timings = ProcessInfo.processInfo.environment["BENCH_TIMINGS"] == nil ? nil : ProjectionTimings()
    let start = DispatchTime.now().uptimeNanoseconds
    let events = try await database.rebuild(timings: timings) { _, _ in }
    let seconds = milliseconds(since: start) / 1000
    let spent = (timings?.spent ?? []).map { #""\#($0.name)":\#(Double($0.time.components.attoseconds) / 1e18 + Double($0.time.components.seconds))"# }
    print(#"{"events":\#(events),"seconds":\#(seconds),"peakMiB":\#(memoryMiB("VmHWM")),"projections":{\#(spent.joined(separator: ","))}}"#)
}

/// Each read model's cost per event of the log: a replay with every projection timed (the
/// timing itself slows that replay a little, so its rate is not the scenario's).
func projectionCosts(log path: String) throws -> [(name: String, nanosecondsPerEvent: Double)] {
    let output = try run(CommandLine.arguments[0], ["replay-child", path], environment: ["BENCH_TIMINGS": "1"])
    guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
          let events = json["events"] as? Double, let spent = json["projections"] as? [String: Double] else {
        throw BenchError("the replay child printed: \(output)")
    }
    return spent.map { ($0.key, $0.value * 1e9 / events) }.sorted { $0.nanosecondsPerEvent > $1.nanosecondsPerEvent }
}

/// Runs the replay child on the log; returns (events/s, peak RSS MiB).
func replay(log path: String) throws -> (eventsPerSecond: Double, peakMiB: Double) {
    let output = try run(CommandLine.arguments[0], ["replay-child", path])
    guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
          let events = json["events"] as? Double, let seconds = json["seconds"] as? Double, let peak = json["peakMiB"] as? Double else {
        throw BenchError("the replay child printed: \(output)")
    }
    return (events / seconds, peak)
}
