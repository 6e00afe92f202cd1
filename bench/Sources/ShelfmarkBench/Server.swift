import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server process started by the bench: `BenchServer serve` (shelfmark) or `HelloServer`.
final class ServerProcess {
    let process = Process()
    let port: Int

    /// Starts the executable next to the bench binary (same release build) on `port`.
    init(_ name: String, _ arguments: [String], port: Int, environment: [String: String] = [:]) throws {
        self.port = port
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Polls `path` until it answers 200; returns the milliseconds since `start`.
    func waitUntilServing(_ path: String, since start: UInt64, timeout: Double = 60) async throws -> Double {
        let url = URL(string: "http://127.0.0.1:\(port)\(path)")!
        while milliseconds(since: start) < timeout * 1000 {
            if let (_, response) = try? await URLSession.shared.data(from: url), (response as? HTTPURLResponse)?.statusCode == 200 {
                return milliseconds(since: start)
            }
            guard process.isRunning else { throw BenchError("\(process.executableURL!.lastPathComponent) exited with \(process.terminationStatus)") }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw BenchError("no answer from \(url) within \(timeout) s")
    }

    /// Peak resident set so far, MiB.
    var peakMiB: Double { memoryMiB("VmHWM", pid: process.processIdentifier) }

    /// SIGTERM, then waits for the exit.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// A loopback port nobody listens on now (the kernel picks it; the socket is closed at once).
func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Scenario 5: launch to the first 200 from /health on the big log (it must not replay).
func startUp(log path: String) async throws -> Double {
    let port = freePort()
    let start = DispatchTime.now().uptimeNanoseconds
    let server = try ServerProcess("BenchServer", ["serve", "--db", path, "--port", "\(port)"], port: port)
    defer { server.stop() }
    return try await server.waitUntilServing("/api/v1/health", since: start)
}

/// A new, empty database on the PostgreSQL server at `server` (psql creates it); its URL.
func freshDatabase(on server: String) throws -> String {
    guard var url = URLComponents(string: server) else { throw BenchError("BENCH_POSTGRES_URL is not a URL: \(server)") }
    let name = "shelfmark_bench_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
    _ = try run("/usr/bin/psql", [server, "-qc", "CREATE DATABASE \(name)"])
    url.path = "/\(name)"
    return url.string!
}

/// Drops the database at `url`, one `freshDatabase` made on `server` (its servers stopped).
func dropDatabase(_ url: String, on server: String) throws {
    guard let name = URLComponents(string: url)?.path.dropFirst(), name.hasPrefix("shelfmark_bench_") else { return }
    _ = try run("/usr/bin/psql", [server, "-qc", "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"])
}

/// A PostgreSQL copy of the SQLite library at `sqlite` in a fresh database on `server` (`shelfmark
/// copy`); its URL and the `--db` whose key file (`<db>.key`) its servers must be started with.
func postgresCopy(of sqlite: String, on server: String, folder: URL) throws -> (url: String, db: String) {
    let url = try freshDatabase(on: server)
    let db = folder.appendingPathComponent("pg-\(UUID()).sqlite").path
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("BenchServer").path
    _ = try run(binary, ["copy", "--from", sqlite, "--to", url, "--db", db])
    return (url, db)
}
