import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Child processes through posix_spawn, not Foundation's `Process`: corelibs Foundation's spawn
// and its pipe reads crashed the test process twice (a memmove inside `Process.run()`, and a
// `try!` on EINTR in FileHandle) while the connection-flood suites held hundreds of descriptors.
// Here every pipe is close-on-exec, reads and waits retry on EINTR, and nothing is shared.

/// A child process started by `ChildProcess.spawn`.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    private init(pid: pid_t) { self.pid = pid }

    /// Starts `executable` with `arguments` and exactly `environment`; each standard stream is
    /// the given descriptor, or /dev/null when nil. The descriptors stay open in this process.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: Int32? = nil,
        stdout: Int32? = nil, stderr: Int32? = nil
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        // Nothing else is inherited: SwiftNIO's accepted sockets are not close-on-exec, and a child
        // holding a copy of a server's connection keeps it open after the server closes it (the
        // client never sees the close while that child runs: a `serve` child runs for a whole test).
        guard let closeFrom = closeFrom, closeFrom(&actions, 3) == 0 else {
            throw SpawnFailed(executable: "posix_spawn_file_actions_addclosefrom_np", errno: ENOSYS)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no blocked signals and default dispositions (the test runner ignores SIGPIPE).
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnFailed(executable: executable, errno: result) }
        return ChildProcess(pid: pid)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time:
    /// Swift's Glibc module leaves it out (it is behind `_GNU_SOURCE`).
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }
    }()

    /// Sends SIGTERM, as a service manager stopping the server would.
    func terminate() { if isRunning { kill(pid, SIGTERM) } }

    /// Whether the child has not exited yet (reaps it when it has).
    var isRunning: Bool { lock.withLock { exitStatus == nil && reap(options: WNOHANG) == nil } }

    /// Blocks until the child exits: its exit code, or 128 + the signal that ended it.
    @discardableResult func wait() -> Int32 {
        lock.withLock {
            while exitStatus == nil { _ = reap(options: 0) }
            return exitStatus!
        }
    }

    /// One `waitpid`, retried on EINTR; records and returns the status once the child exited.
    private func reap(options: Int32) -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, options) } while result == -1 && errno == EINTR
        guard result == pid else { return nil }
        let signal = status & 0x7f
        exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        return exitStatus
    }

    deinit {
        if lock.withLock({ exitStatus == nil && reap(options: WNOHANG) == nil }) {
            kill(pid, SIGKILL)
            wait()
        }
    }
}

struct SpawnFailed: Error, CustomStringConvertible {
    let executable: String
    let errno: Int32
    var description: String { "could not start \(executable): \(String(cString: strerror(errno)))" }
}

/// Held while pipes are made close-on-exec and children spawned (`pipe2` is not exported to
/// Swift): no child spawned by another test can inherit a pipe between `pipe` and `fcntl`.
let spawning = NSLock()

/// A pipe whose both ends are close-on-exec, so no other child inherits them (call under `spawning`).
func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw SpawnFailed(executable: "pipe", errno: errno) }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return (fds[0], fds[1])
}

/// Runs `executable` to its end with `input` on stdin (or `inputBytes`, which need not be UTF-8);
/// its exit status and both outputs, read together (neither side can fill its pipe and stall the other).
func runToEnd(
    _ executable: String, _ arguments: [String], environment: [String: String], input: String?, inputBytes: [UInt8]? = nil
) throws -> (status: Int32, stdout: Data, stderr: Data) {
    spawning.lock()
    let pipes = [try? closeOnExecPipe(), try? closeOnExecPipe(), try? closeOnExecPipe()]
    guard let stdin = pipes[0], let stdout = pipes[1], let stderr = pipes[2] else {
        pipes.compactMap { $0 }.forEach {
            close($0.read); close($0.write)
        }
        spawning.unlock()
        throw SpawnFailed(executable: "pipe", errno: errno)
    }
    let spawned = Result {
        try ChildProcess.spawn(
            executable, arguments, environment: environment, stdin: stdin.read, stdout: stdout.write, stderr: stderr.write)
    }
    spawning.unlock()
    [stdin.read, stdout.write, stderr.write].forEach { close($0) }
    let child: ChildProcess
    do { child = try spawned.get() } catch {
        [stdin.write, stdout.read, stderr.read].forEach { close($0) }
        throw error
    }
    let pending = inputBytes ?? Array((input ?? "").utf8)
    var sent = 0
    var writer: Int32? = stdin.write
    if pending.isEmpty {
        close(stdin.write)
        writer = nil
    } else {
        // Never block on a full stdin while the child waits for its stdout to be read.
        _ = fcntl(stdin.write, F_SETFL, fcntl(stdin.write, F_GETFL) | O_NONBLOCK)
    }
    var outputs: [Int32: Data] = [stdout.read: Data(), stderr.read: Data()]
    var open: Set<Int32> = [stdout.read, stderr.read]
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !open.isEmpty || writer != nil {
        var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if let writer { fds.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
        guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
            if errno == EINTR { continue }
            break
        }
        for entry in fds where entry.revents != 0 {
            if entry.fd == writer {
                let written = pending[sent...].withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
                if written > 0 { sent += written }
                if sent == pending.count || (written < 0 && errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    writer = nil
                }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
            if count > 0 {
                outputs[entry.fd]!.append(contentsOf: buffer[0..<count])
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                close(entry.fd)
                open.remove(entry.fd)
            }
        }
    }
    return (child.wait(), outputs[stdout.read]!, outputs[stderr.read]!)
}

/// `shelfmark serve --port 0` on `database`, its stderr in `log`; stopped with SIGTERM by the caller.
struct ServingShelfmark {
    let process: ChildProcess
    let port: Int
    let log: URL

    /// Starts the server and waits until it reports its port.
    static func start(database: String, log: URL, environment extra: [String: String] = [:]) async throws -> ServingShelfmark {
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SpawnFailed(executable: "open \(log.path)", errno: errno) }
        defer { close(fd) }
        let environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let executable = try shelfmarkExecutable().path
        let process = try spawning.withLock {
            try ChildProcess.spawn(executable, ["serve", "--port", "0", "--db", database], environment: environment, stderr: fd)
        }
        do {
            return ServingShelfmark(process: process, port: try await servingPort(in: log), log: log)
        } catch {
            process.terminate()
            process.wait()
            throw error
        }
    }

    /// SIGTERM, then the exit status once the server stopped (blocking: for `defer` only).
    func stop() -> Int32 {
        process.terminate()
        return process.wait()
    }

    /// SIGTERM, then the exit status once the server stopped, waited for off the cooperative pool.
    func stop() async -> Int32 {
        let process = process
        process.terminate()
        return await offPool { process.wait() }
    }
}
