import Foundation
import Testing

/// The result of running the real `shelfmark` executable.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the built `shelfmark` binary with `arguments` against the database at `database`, blocking
/// the calling thread: only ever on a thread of its own (tests call the async `shelfmark`, so a
/// child's run never holds one of the cooperative pool's threads, which are as few as cores).
private func runShelfmark(
    _ arguments: [String], database: String, stdin: String?, stdinBytes: [UInt8]? = nil, environment extra: [String: String]
) throws -> CLIResult {
    var environment = ProcessInfo.processInfo.environment
    environment["SHELFMARK_DB"] = database
    environment["SHELFMARK_SYNCHRONOUS"] = "off"
    environment["SHELFMARK_BCRYPT_COST"] = "4"
    // Open Library is a loopback fake here, answering as fast as a loaded machine lets it: the
    // tests about the deadline set their own.
    environment["SHELFMARK_OPENLIBRARY_DEADLINE"] = "60"
    // Each database gets its own saved-session folder: tests never touch the user's real login.
    environment["XDG_CONFIG_HOME"] = URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("config").path
    let run = try runToEnd(
        try shelfmarkExecutable().path, arguments, environment: environment.merging(extra) { $1 }, input: stdin, inputBytes: stdinBytes)
    return CLIResult(
        status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self), stderr: String(decoding: run.stderr, as: UTF8.self))
}

/// `shelfmark`, built beside the test bundle by `swift test`.
func shelfmarkExecutable() throws -> URL {
    let candidates = [
        Bundle.main.bundleURL.appendingPathComponent("shelfmark"),
        Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("shelfmark"),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/shelfmark"),
    ]
    return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "build shelfmark first")
}

/// A temporary database path, and its folder removed afterwards.
final class TemporaryDatabase: @unchecked Sendable {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-cli-\(UUID())")
    var path: String { folder.appendingPathComponent("nested/library.sqlite").path }
    /// The database's folder exists: a library is created only in a folder that does.
    init() {
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent("nested"), withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: folder) }
}

/// `shelfmark` for tests: waits for the process on its own thread, so loopback fakes and servers
/// run by the cooperative pool keep running meanwhile (the pool has as few threads as cores).
func shelfmark(
    _ arguments: [String], database: String, stdin: String? = nil, stdinBytes: [UInt8]? = nil, environment: [String: String] = [:]
) async throws -> CLIResult {
    try await childProcesses.run {
        try await offPool {
            try runShelfmark(arguments, database: database, stdin: stdin, stdinBytes: stdinBytes, environment: environment)
        }
    }
}

/// At most as many `shelfmark` runs at once as the machine has cores: each is a whole process
/// starting up, and unbounded, a hundred CLI tests at once would leave the servers and fakes
/// of every other test too little CPU to answer within their deadlines.
let childProcesses = Admission(ProcessInfo.processInfo.activeProcessorCount)

/// A counting semaphore for tasks: `run` waits, without holding a thread, for one of `limit` places.
actor Admission {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) { free = max(1, limit) }

    /// Runs `work` once a place is free, then frees it.
    nonisolated func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        await enter()
        do {
            let result = try await work()
            await leave()
            return result
        } catch {
            await leave()
            throw error
        }
    }

    private func enter() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// Runs blocking `work` on a thread of its own: a test waiting for a child process or a socket
/// never holds one of the cooperative pool's threads, which every other test running meanwhile needs.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// `offPool` for work that cannot fail.
func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in Thread.detachNewThread { continuation.resume(returning: work()) } }
}

/// The port `shelfmark serve --port 0` reports on its log (`serving http://127.0.0.1:PORT`), once it does.
func servingPort(in log: URL) async throws -> Int {
    for _ in 0..<600 {
        let text = try String(contentsOf: log, encoding: .utf8)
        if let range = text.range(of: #"serving http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
            return Int(text[range].split(separator: ":").last!)!
        }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("the server did not start: \(try String(contentsOf: log, encoding: .utf8))")
    throw CancellationError()
}
