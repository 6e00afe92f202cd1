import Application
import Composition
import Domain
import Foundation
import GRDB
import SQLiteStore

/// A library on a fresh file with synchronous=FULL, through the same composition root as `serve`.
func openBenchLibrary(_ path: String, durability: Durability = .full) throws -> (Library, LibraryDatabase) {
    var configuration = ShelfmarkConfiguration(databasePath: path)
    configuration.durability = durability
    configuration.bcryptCost = 4
    return try Bootstrap.openLibrary(configuration)
}

/// Signs up `count` members; returns each one's principal and bearer token.
func signUpMembers(_ count: Int, _ library: Library, prefix: String = "member") async throws -> [(principal: Principal, token: String)] {
    var members: [(Principal, String)] = []
    for n in 0..<count {
        let signedIn = try await library.accounts.signUp.execute(
            SignupForm(email: "\(prefix)\(n)@bench.example", password: "Bench-Pass-\(n)", country: "FR"), by: .anonymous)
        guard let session = signedIn.session else { throw BenchError("signup opened no session") }
        members.append((.user(signedIn.account.id, signedIn.account.role, session.id), session.token))
    }
    return members
}

/// Scenario 1: one writer; per book: add it, borrow it, return it (three durable commands, each
/// loading its streams, deciding and appending). Returns commands per second.
func durableCommands(books: Int, folder: URL) async throws -> Double {
    let (library, database) = try openBenchLibrary(folder.appendingPathComponent("durable-\(UUID()).sqlite").path, durability: benchDurability)
    defer { try? database.close() }
    let member = try await signUpMembers(1, library)[0].principal
    let start = DispatchTime.now().uptimeNanoseconds
    var spent = [0.0, 0.0, 0.0]
    for n in 0..<books {
        var t = DispatchTime.now().uptimeNanoseconds
        let book = try await library.catalogue.addBook.execute(
            BookDraft(title: "Durable \(n)", authors: ["Author \(n % 31)"]), copies: 1, by: .cliOperator)
        spent[0] += milliseconds(since: t); t = DispatchTime.now().uptimeNanoseconds
        let loans = try await library.circulation.borrow.execute([book.id], by: member)
        spent[1] += milliseconds(since: t); t = DispatchTime.now().uptimeNanoseconds
        _ = try await library.circulation.giveBack.execute(loans[0].id, by: member)
        spent[2] += milliseconds(since: t)
    }
    if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil { progress("add, borrow, return: ms per command \(spent.map { $0 / Double(books) })") }
    return Double(books * 3) / (milliseconds(since: start) / 1000)
}

/// The Python `eventsourcing` peer doing the same three commands per aggregate (bench/reference).
func pythonPeer(aggregates: Int) throws -> Double {
    let bench = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let output = try run(bench.appendingPathComponent(".venv/bin/python").path,
                         [bench.appendingPathComponent("reference/eventsourcing_peer.py").path, "\(aggregates)"])
    guard let line = output.split(separator: "\n").last,
          let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let rate = json["commands_per_s"] as? Double else { throw BenchError("the Python peer printed: \(output)") }
    return rate
}

/// SQLite's own floor under scenario 1: one connection, WAL, synchronous=FULL, each transaction
/// inserting one ~300-byte row into a table with one index, for `seconds`. Any durable command on
/// SQLite commits at least this much (its event, and so an index, and the WAL's fsync). Commits/s.
func sqliteFloor(folder: URL, seconds: Double = 2) throws -> Double {
    let path = folder.appendingPathComponent("floor-\(UUID()).sqlite").path
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
        try db.execute(sql: "PRAGMA synchronous = FULL")
        try db.execute(sql: "CREATE TABLE row (id INTEGER PRIMARY KEY, stream TEXT NOT NULL, body TEXT NOT NULL)")
        try db.execute(sql: "CREATE UNIQUE INDEX row_stream ON row (stream)")
    }
    let body = String(repeating: "x", count: 300)
    let start = DispatchTime.now().uptimeNanoseconds
    var count = 0
    try queue.writeWithoutTransaction { db in
        let insert = try db.makeStatement(sql: "INSERT INTO row (stream, body) VALUES (?, ?)")
        while milliseconds(since: start) < seconds * 1000 {
            try db.inTransaction {
                try insert.execute(arguments: ["stream-\(count)", body])
                return .commit
            }
            count += 1
        }
    }
    return Double(count) / (milliseconds(since: start) / 1000)
}
