import Application
import Composition
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Idle connections are closed, slow bodies cut off and the number of connections is bounded, so
/// that idle or half-sent requests can neither hold the server for ever nor exhaust its file
/// descriptors (running out of them makes libdispatch trap, which kills the process).
@Suite("HTTP connections: timeouts and limit")
struct ConnectionLimitTests {
    @Test func idleAndHalfSentConnectionsAreClosedAfterTheIdleTimeout() async throws {
        try await withAPI(mode: .live, configure: { $0.idleTimeout = 0.3 }) { client in
            let port = try #require(client.client.port)
            let idle = try RawConnection(port: port)
            let halfSent = try RawConnection(port: port)
            try halfSent.send("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            #expect(await idle.waitForClose(seconds: 5))
            #expect(await halfSent.waitForClose(seconds: 5))
        }
    }

    @Test func aBodyTrickledAByteAtATimeIsCutOffAtTheBodyTimeout() async throws {
        // Every byte is activity for the idle timeout; the body timeout bounds the whole body.
        try await withAPI(
            mode: .live,
            configure: {
                $0.idleTimeout = 30; $0.bodyTimeout = 0.5
            }
        ) { client in
            let port = try #require(client.client.port)
            let slow = try RawConnection(port: port)
            // 1,000 bytes at one per 0.1 s would take 100 s, each byte well within the idle timeout:
            // only the body timeout can close the connection within the 60 s this waits (no bound
            // on the time itself, which a loaded machine stretches).
            try slow.send("POST /api/v1/books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
            let started = ContinuousClock.now
            var (closed, sent) = (false, 0)
            while !closed, ContinuousClock.now - started < .seconds(60) {
                if (try? slow.send(" ")) != nil { sent += 1 }
                closed = await slow.waitForClose(seconds: 0.1)
            }
            #expect(closed, "still open after \(sent) of 1,000 bytes")
            #expect(sent < 1000)
        }
    }

    @Test func connectionsBeyondTheLimitWaitUntilOneCloses() async throws {
        // Through `serve` itself: HummingbirdTesting's live mode rebuilds the server configuration
        // without its connection limit.
        let db = TemporaryDatabase()
        let server = try await ServingShelfmark.start(
            database: db.path, log: db.folder.appendingPathComponent("serve.log"),
            environment: ["SHELFMARK_MAX_CONNECTIONS": "1", "SHELFMARK_IDLE_TIMEOUT": "8"])
        defer { _ = server.stop() }
        let (port, log) = (server.port, server.log)

        // A kept-alive socket takes the only place (its answer proves the server took it in, however
        // loaded the machine); the next connection is served once the idle timeout closed it (8 s:
        // long enough that a machine loaded by the whole test suite does not reach it during the first check).
        let idle = try RawConnection(port: port)
        let asked = ContinuousClock.now
        try idle.send("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await idle.read(through: "\r\n\r\n", seconds: 10).hasPrefix("HTTP/1.1 200"))
        let waiting = try RawConnection(port: port)
        try waiting.send("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        var answer = await waiting.readAll(seconds: 0.5)
        // The idle timeout counts from the first connection's last read (its request): a machine too
        // loaded to get here well within it may have let that place go, and the check proves nothing then.
        if ContinuousClock.now - asked < .seconds(6) {
            #expect(answer.isEmpty, "served although the only place was taken")
        }
        if answer.isEmpty { answer = await waiting.readAll(seconds: 30) }
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(await idle.waitForClose(seconds: 1))
        #expect(try String(contentsOf: log, encoding: .utf8).contains("at most 1 connections"))
    }

    @Test func theLimitsComeFromTheEnvironment() throws {
        let environment = ["SHELFMARK_IDLE_TIMEOUT": "2.5", "SHELFMARK_BODY_TIMEOUT": "7", "SHELFMARK_MAX_CONNECTIONS": "300"]
        let configuration = try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: environment)
        #expect(configuration.idleTimeout == 2.5)
        #expect(configuration.bodyTimeout == 7)
        #expect(configuration.maxConnections == 300)
        #expect(try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: [:]).maxConnections == nil)
        #expect(throws: ConfigurationError.self) {
            try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: ["SHELFMARK_IDLE_TIMEOUT": "0"])
        }
        #expect(throws: ConfigurationError.self) {
            try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: ["SHELFMARK_MAX_CONNECTIONS": "0"])
        }
    }

    @Test func theConnectionBudgetLeavesDescriptorsForEverythingElse() {
        #expect(OpenFiles.connectionBudget(limit: 1024) == 768)
        #expect(OpenFiles.connectionBudget(limit: 20_000) == 19_744)
        #expect(OpenFiles.connectionBudget(limit: 256) == 128)
        #expect(OpenFiles.connectionBudget(limit: 10) == 16)
        #expect(OpenFiles.raiseSoftLimit().map { $0 >= 256 } ?? true)
    }
}

/// A plain TCP connection to the loopback server, for what an HTTP client would not do. Its reads
/// block: against a server running in the test process, use the `async` ones, which wait on a
/// thread of their own and leave the cooperative pool (as many threads as cores) to the server.
final class RawConnection: @unchecked Sendable {  // one test uses each connection at a time
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let sent = text.utf8CString.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count - 1, 0) }
        guard sent == text.utf8.count else { throw POSIXError(.EPIPE) }
    }

    /// Everything the server sends until it closes the connection or `seconds` pass.
    func readAll(seconds: Double) -> String {
        var received: [UInt8] = []
        _ = read(until: ContinuousClock.now + .milliseconds(Int(seconds * 1000))) {
            received += $0
            return true
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What the server sends until `marker` arrived, it closes the connection, or `seconds` pass:
    /// a deadline for a slow machine, never a measure of speed.
    func read(through marker: String, seconds: Double) -> String {
        var received: [UInt8] = []
        _ = read(until: ContinuousClock.now + .milliseconds(Int(seconds * 1000))) {
            received += $0
            return !String(decoding: received, as: UTF8.self).contains(marker)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// `read(through:seconds:)`, waiting off the cooperative pool.
    func read(through marker: String, seconds: Double) async -> String { await offPool { self.read(through: marker, seconds: seconds) } }

    /// True when the server closes the connection within `seconds`.
    func waitForClose(seconds: Double) -> Bool {
        read(until: ContinuousClock.now + .milliseconds(Int(seconds * 1000))) { _ in true }
    }

    /// `readAll`, waiting off the cooperative pool.
    func readAll(seconds: Double) async -> String { await offPool { self.readAll(seconds: seconds) } }

    /// `waitForClose`, waiting off the cooperative pool.
    func waitForClose(seconds: Double) async -> Bool { await offPool { self.waitForClose(seconds: seconds) } }

    /// Reads until the peer closes (true), the deadline passes or `chunk` says to stop (false).
    private func read(until deadline: ContinuousClock.Instant, _ chunk: ([UInt8]) -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return true }
            guard chunk(Array(buffer[0..<count])) else { return false }
        }
        return false
    }
}
