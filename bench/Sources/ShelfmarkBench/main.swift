import Foundation

// Shelfmark's benchmarks (bench/run). Every scenario runs BENCH_RUNS times (default 3) and the
// table shows medians, each next to its reference measured in the same run. BENCH_ONLY (comma-
// separated: durable, group, contention, replay, startup, http) runs a subset; for profiling,
// BENCH_LOG keeps the replay's log, BENCH_WRITERS=1,64 picks scenario 2's writer counts,
// BENCH_SYNC=off|normal runs scenarios 1 and 2 without fsync and BENCH_DEBUG=1 prints how a
// durable command's time splits between add, borrow and return. BENCH_POSTGRES_URL (a PostgreSQL
// server where the bench may create databases) adds scenario 2 at 64 writers and scenario 6's
// borrow+return on PostgreSQL, with one and two servers; without it those rows say they were skipped.

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "replay-child" {
    try await replayChild(CommandLine.arguments[2])
    exit(0)
}

let environment = ProcessInfo.processInfo.environment
let runs = Int(environment["BENCH_RUNS"] ?? "3") ?? 3
let only = Set((environment["BENCH_ONLY"] ?? "").split(separator: ",").map(String.init))
func wanted(_ scenario: String) -> Bool { only.isEmpty || only.contains(scenario) }
func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
func progress(_ text: String) { FileHandle.standardError.write(Data("bench: \(text)\n".utf8)) }
let postgres = environment["BENCH_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
/// The row saying a PostgreSQL scenario was left out, and why (also said on stderr).
func skippedOnPostgres(_ scenario: String) -> Row {
    progress("\(scenario): skipped, BENCH_POSTGRES_URL is not set (e.g. the URL `.ci/postgres start DIR` prints)")
    return Row(scenario: scenario, result: "skipped: BENCH_POSTGRES_URL not set")
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-bench-\(UUID())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

var rows: [Row] = []
progress("disk fdatasync rate")
let fsyncs = median((0..<runs).map { _ in fdatasyncRate(in: folder) })
rows.append(Row(scenario: "disk fdatasync/s (the bound of durable commits)", result: grouped(fsyncs)))

if wanted("durable") {
    progress("1. durable commands, one writer, and the Python eventsourcing peer")
    var ours: [Double] = [], peer: [Double] = [], floor: [Double] = []
    for _ in 0..<runs {
        ours.append(try await durableCommands(books: 1_000, folder: folder))
        peer.append(try pythonPeer(aggregates: 1_000))
        floor.append(try sqliteFloor(folder: folder))
    }
    let (rate, reference, floorRate) = (median(ours), median(peer), median(floor))
    rows.append(Row(
        scenario: "1. SQLite alone: a one-row commit, WAL, synchronous=FULL, one connection (the floor of any durable command)",
        result: "\(grouped(floorRate)) commits/s",
        ratio: String(format: "%.1f× Python; %.0f%% of fdatasync/s", floorRate / reference, 100 * floorRate / fsyncs)))
    rows.append(Row(scenario: "1. Python eventsourcing, SQLite WAL, synchronous=FULL (reference)", result: "\(grouped(reference)) commands/s"))
    rows.append(Row(
        scenario: "1. durable commands, one writer: add, borrow, return a book", result: "\(grouped(rate)) commands/s",
        ratio: String(format: "%.1f× Python; %.0f%% of fdatasync/s", rate / reference, 100 * rate / fsyncs),
        target: "≥ 2× Python, ≥ 60% of fdatasync/s"))
}

if wanted("group") {
    var perEventAt64 = 0.0
    let bareCounts = environment["BENCH_WRITERS"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1, 64]
    for writers in bareCounts {
        progress("2. bare append (no read model), \(writers) writers")
        var results: [(eventsPerSecond: Double, p50: Double, p99: Double)] = []
        for _ in 0..<runs {
            results.append(try await groupCommit(writers: writers, total: writers == 1 ? 300 : 8_192, folder: folder, projecting: false))
        }
        let eps = median(results.map(\.eventsPerSecond))
        rows.append(Row(
            scenario: "2. the bare log, no read model: \(writers) writer\(writers == 1 ? "" : "s") (one event per append)",
            result: "\(grouped(eps)) events/s", p50: ms(median(results.map(\.p50))), p99: ms(median(results.map(\.p99))),
            ratio: String(format: "%.1f× fdatasync/s", eps / fsyncs)))
    }
    let writerCounts = environment["BENCH_WRITERS"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1, 8, 64]
    for writers in writerCounts {
        progress("2. group commit, \(writers) writers")
        var results: [(eventsPerSecond: Double, p50: Double, p99: Double)] = []
        for _ in 0..<runs { results.append(try await groupCommit(writers: writers, total: writers == 1 ? 300 : 8_192, folder: folder)) }
        let eps = median(results.map(\.eventsPerSecond))
        if writers == 64 { perEventAt64 = 1e9 / eps }
        rows.append(Row(
            scenario: "2. group commit, \(writers) writer\(writers == 1 ? "" : "s") (one event per append)", result: "\(grouped(eps)) events/s",
            p50: ms(median(results.map(\.p50))), p99: ms(median(results.map(\.p99))),
            ratio: String(format: "%.1f× fdatasync/s", eps / fsyncs), target: writers == 64 ? "≥ 60,000 events/s, p99 < 10 ms" : ""))
    }
    let groupOnPostgres = "2. group commit, 64 writers, PostgreSQL, one library (one event per append)"
    if let postgres {
        progress("2. group commit, 64 writers, PostgreSQL")
        var results: [(eventsPerSecond: Double, p50: Double, p99: Double)] = []
        for _ in 0..<runs { results.append(try await groupCommit(writers: 64, total: 8_192, folder: folder, postgres: postgres)) }
        let eps = median(results.map(\.eventsPerSecond))
        rows.append(Row(
            scenario: groupOnPostgres, result: "\(grouped(eps)) events/s",
            p50: ms(median(results.map(\.p50))), p99: ms(median(results.map(\.p99))),
            ratio: perEventAt64 > 0 ? String(format: "%.1f× SQLite at 64 writers", eps * perEventAt64 / 1e9) : ""))
    } else {
        rows.append(skippedOnPostgres(groupOnPostgres))
    }
    let hashNanos = environment["BENCH_WRITERS"] == nil ? median((0..<runs).map { _ in hashCost() }) : 0
    rows.append(Row(
        scenario: "2. hash chain, SHA-256 per event (in the writer)", result: "\(grouped(hashNanos)) ns/event",
        ratio: String(format: "%.1f%% of an append at 64 writers", 100 * hashNanos / perEventAt64)))
}

if wanted("contention") {
    progress("3. contention: 64 members, 10 books of 3 copies")
    var results: [ContentionResult] = []
    for _ in 0..<runs { results.append(try await contention(folder: folder)) }
    rows.append(Row(
        scenario: "3. contention: 64 members borrow and return 10 books of 3 copies", result: "\(grouped(median(results.map(\.loansPerSecond)))) loans/s",
        p50: ms(median(results.map(\.p50))), p99: ms(median(results.map(\.p99))),
        ratio: "oversold \(results.map(\.oversold).reduce(0, +)); refused (no copy) \(results.map(\.refused).reduce(0, +))",
        target: "≥ 3,000 loans/s, oversold 0"))
}

// BENCH_LOG=PATH keeps the million-event log at PATH and reuses it (for profiling the replay).
let log = environment["BENCH_LOG"] ?? folder.appendingPathComponent("million.sqlite").path
if (wanted("replay") || wanted("startup")) && !FileManager.default.fileExists(atPath: log) {
    progress("building a 1,000,000-event log")
    try await buildLog(events: 1_000_000, at: log)
}
if wanted("replay") {
    progress("4. replay of 1,000,000 events")
    let results = try (0..<runs).map { _ in try replay(log: log) }
    rows.append(Row(
        scenario: "4. replay: rebuild every read model from 1,000,000 events", result: "\(grouped(median(results.map(\.eventsPerSecond)))) events/s",
        ratio: String(format: "peak RSS %.0f MiB", median(results.map(\.peakMiB))), target: "≥ 250,000 events/s, peak RSS < 150 MiB"))
    progress("4. what each read model costs per event (a timed replay)")
    for (name, nanoseconds) in try projectionCosts(log: log) {
        rows.append(Row(scenario: "4. replay: the \(name) projection, per event of the log", result: String(format: "%.2f µs", nanoseconds / 1000)))
    }
}
if wanted("startup") {
    progress("5. start-up on the 1,000,000-event log")
    var times: [Double] = []
    for _ in 0..<runs { times.append(try await startUp(log: log)) }
    rows.append(Row(scenario: "5. start-up to the first /health on that log", result: ms(median(times)), target: "< 1 s"))
}

if wanted("http") {
    let seconds = Int(environment["BENCH_WRK_SECONDS"] ?? "10") ?? 10
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else { throw BenchError("wrk is missing: bench/run installs it") }
    var hello: [WrkResult] = [], list: [WrkResult] = [], show: [WrkResult] = [], page: [WrkResult] = [], cycle: [WrkResult] = []
    var peaks: [Double] = [], onPostgres: [WrkResult] = [], onTwo: [WrkResult] = []
    for run in 0..<runs {
        // A fresh library each run: loans left open when wrk stopped would count against the members.
        progress("6. HTTP: seeding 1,000 books and 200 members")
        let database = folder.appendingPathComponent("http-\(run).sqlite").path
        let seed = try await seedHTTPLibrary(at: database)
        let script = folder.appendingPathComponent("cycle-\(run).lua")
        try cycleScript(books: seed.books, members: seed.members, librarian: seed.librarian).write(to: script, atomically: true, encoding: .utf8)
        // The same library copied into two fresh PostgreSQL databases (one for each PostgreSQL run) before any loan.
        let copies = try postgres.map { server in try (0..<2).map { _ in try postgresCopy(of: database, on: server, folder: folder) } }
        progress("6. HTTP: hello ceiling, GET /books, borrow+return (\(seconds) s each)")
        let helloPort = freePort()
        let helloServer = try ServerProcess("HelloServer", ["\(helloPort)"], port: helloPort)
        _ = try await helloServer.waitUntilServing("/", since: DispatchTime.now().uptimeNanoseconds)
        hello.append(try wrk("http://127.0.0.1:\(helloPort)/", seconds: seconds))
        helloServer.stop()

        let port = freePort()
        // The request rates out of the way (a million a minute): the scenario measures the routes, and
        // wrk from one address would otherwise meet the address's write limit within seconds and time 429s.
        let unlimited = ["SEARCH_RATE", "WRITE_RATE", "ADDRESS_SEARCH_RATE", "ADDRESS_WRITE_RATE"].reduce(into: [String: String]()) {
            $0["SHELFMARK_\($1)"] = "1000000"
        }
        let server = try ServerProcess("BenchServer", ["serve", "--db", database, "--port", "\(port)"], port: port, environment: unlimited)
        _ = try await server.waitUntilServing("/api/v1/health", since: DispatchTime.now().uptimeNanoseconds)
        list.append(try wrk("http://127.0.0.1:\(port)/api/v1/books?limit=20", seconds: seconds))
        show.append(try wrk("http://127.0.0.1:\(port)/api/v1/books/\(seed.books[seed.books.count / 2])", seconds: seconds))
        page.append(try wrk("http://127.0.0.1:\(port)/books", seconds: seconds))
        cycle.append(try wrk("http://127.0.0.1:\(port)", script: script.path, seconds: seconds))
        peaks.append(server.peakMiB)
        server.stop()
        if let copies, let postgres {
            progress("6. HTTP: borrow+return on PostgreSQL, one server then two (\(seconds) s each)")
            let onePort = freePort()
            let one = try ServerProcess(
                "BenchServer", ["serve", "--database-url", copies[0].url, "--db", copies[0].db, "--port", "\(onePort)"], port: onePort,
                environment: unlimited)
            _ = try await one.waitUntilServing("/api/v1/health", since: DispatchTime.now().uptimeNanoseconds)
            onPostgres.append(try wrk("http://127.0.0.1:\(onePort)", script: script.path, seconds: seconds))
            one.stop()
            // Two servers on one database, each with its own wrk (32 connections) and half the members.
            let servers = try (0..<2).map { _ in
                let port = freePort()
                return try ServerProcess(
                    "BenchServer", ["serve", "--database-url", copies[1].url, "--db", copies[1].db, "--port", "\(port)"], port: port,
                    environment: unlimited)
            }
            let scripts = (0..<2).map { folder.appendingPathComponent("cycle-\(run)-\($0).lua").path }
            for n in 0..<2 {
                _ = try await servers[n].waitUntilServing("/api/v1/health", since: DispatchTime.now().uptimeNanoseconds)
                try cycleScript(books: seed.books, members: Array(seed.members[n * 100..<(n + 1) * 100]), librarian: seed.librarian)
                    .write(toFile: scripts[n], atomically: true, encoding: .utf8)
            }
            let urls = servers.map { "http://127.0.0.1:\($0.port)" }
            async let first = wrk(urls[0], script: scripts[0], connections: 32, seconds: seconds)
            async let second = wrk(urls[1], script: scripts[1], connections: 32, seconds: seconds)
            let (a, b) = try await (first, second)
            onTwo.append(WrkResult(
                requestsPerSecond: a.requestsPerSecond + b.requestsPerSecond, p50: max(a.p50, b.p50), p99: max(a.p99, b.p99),
                failed: a.failed + b.failed))
            servers.forEach { $0.stop() }
            for copy in copies { try dropDatabase(copy.url, on: postgres) }
        }
    }
    let ceiling = median(hello.map(\.requestsPerSecond))
    rows.append(Row(
        scenario: "6. HTTP hello route, Hummingbird alone (reference), 64 connections", result: "\(grouped(ceiling)) req/s",
        p50: ms(median(hello.map(\.p50))), p99: ms(median(hello.map(\.p99)))))
    let books = median(list.map(\.requestsPerSecond))
    rows.append(Row(
        scenario: "6. HTTP GET /api/v1/books?limit=20, 64 connections", result: "\(grouped(books)) req/s",
        p50: ms(median(list.map(\.p50))), p99: ms(median(list.map(\.p99))),
        ratio: String(format: "%.0f%% of hello", 100 * books / ceiling), target: "≥ 40% of hello"))
    let one = median(show.map(\.requestsPerSecond))
    rows.append(Row(
        scenario: "6. HTTP GET /api/v1/books/{id}, 64 connections", result: "\(grouped(one)) req/s",
        p50: ms(median(show.map(\.p50))), p99: ms(median(show.map(\.p99))),
        ratio: String(format: "%.0f%% of hello", 100 * one / ceiling), target: "≥ 50% of hello"))
    let html = median(page.map(\.requestsPerSecond))
    rows.append(Row(
        scenario: "6. HTTP GET /books, the catalogue page (20 books, HTML), 64 connections", result: "\(grouped(html)) req/s",
        p50: ms(median(page.map(\.p50))), p99: ms(median(page.map(\.p99))),
        ratio: String(format: "%.0f%% of GET /api/v1/books?limit=20", 100 * html / books), target: "≥ 50% of the API's list"))
    rows.append(Row(
        scenario: "6. HTTP borrow + return (2 requests a cycle), 64 connections", result: "\(grouped(median(cycle.map(\.requestsPerSecond)) / 2)) cycles/s",
        p50: ms(median(cycle.map(\.p50))), p99: ms(median(cycle.map(\.p99))),
        ratio: "failed requests \(cycle.map(\.failed).reduce(0, +)); p50/p99 per request", target: "≥ 3,000 cycles/s, p99 < 20 ms"))
    let sqlite = median(cycle.map(\.requestsPerSecond))
    for (name, results, note) in [
        ("one server, 64 connections", onPostgres, ""),
        ("two servers on one database, 32 connections each", onTwo, ", the worse of the two wrk"),
    ] {
        let scenario = "6. HTTP borrow + return on PostgreSQL, \(name)"
        guard !results.isEmpty else {
            rows.append(skippedOnPostgres(scenario))
            continue
        }
        let rate = median(results.map(\.requestsPerSecond))
        rows.append(Row(
            scenario: scenario, result: "\(grouped(rate / 2)) cycles/s",
            p50: ms(median(results.map(\.p50))), p99: ms(median(results.map(\.p99))),
            ratio: String(format: "%.1f× SQLite; failed requests %d", rate / sqlite, results.map(\.failed).reduce(0, +))
                + "; p50/p99 per request" + note))
    }
    rows.append(Row(scenario: "7. server peak RSS during scenario 6", result: String(format: "%.0f MiB", median(peaks)), target: "< 150 MiB"))
}

let header = ["| scenario | result | p50 | p99 | ratio | target |", "|---|---|---|---|---|---|"]
let table = (header + rows.map(\.markdown)).joined(separator: "\n")
print(table)
let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
let results = "# Benchmark results\n\nLast run: \(Date().formatted(.iso8601)), medians of \(runs) runs, release build (`bench/run`).\nMachine: \(machine).\n\n\(table)\n"
if CommandLine.arguments.count > 1 { try results.write(toFile: CommandLine.arguments[1], atomically: true, encoding: .utf8) }
