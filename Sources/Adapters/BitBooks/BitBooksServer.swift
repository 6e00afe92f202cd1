import Application
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Serves BitBooks clients over TCP: one task per connection, answering its commands in order,
/// with its own login. Each answer is its bare text, as the original server sent it (no line
/// ending: its clients compare one read with the string), in one write. Runs until graceful shutdown.
public struct BitBooksServer: Service {
    let library: Library
    let host: String
    let port: Int
    let limits: BitBooksLimits
    let logger: Logger
    let onListening: @Sendable (Int) async -> Void
    /// `GET_BOOKS`, worked out once for all the connections asking at the same time.
    let bookList = SharedAnswer()

    /// A server for `library` on `host:port` (0: a free port, told to `onListening`).
    public init(
        library: Library, host: String, port: Int, limits: BitBooksLimits = BitBooksLimits(), logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.library = library
        self.host = host
        self.port = port
        self.limits = limits
        self.logger = logger
        self.onListening = onListening
    }

    /// Listens, then serves every connection until graceful shutdown; a bind failure is thrown as `BitBooksListenError`.
    public func run() async throws {
        let listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        do {
            listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 1_024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // A client that shuts down its sending side (`nc -N`, shutdown(SHUT_WR)) still gets its answers.
                .childChannelOption(.allowRemoteHalfClosure, value: true)
                // The kernel would otherwise buffer megabytes for a client that never reads, and the
                // server would work out that many answers for nobody before its writes stall.
                .childChannelOption(.socketOption(.so_sndbuf), value: BitBooksLimits.sendBufferBytes)
                .childChannelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: CommandFraming.readBytes))
                .bind(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try (TornDownOnDeinit.self as any ConnectionWrapping.Type).wrap(channel)
                    }
                }
        } catch {
            throw BitBooksListenError(host: host, port: port, cause: error)
        }
        await onListening(listener.channel.localAddress?.port ?? port)
        // Cancelling the loop that takes accepted connections would drop the ones not taken yet,
        // which NIO treats as a fatal error: at graceful shutdown or cancellation the listener is
        // closed instead, the loop takes what was accepted and ends, and then every connection is cancelled.
        let accepting = Task { try await accept(listener) }
        let channel = listener.channel
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                if case .failure(let error) = await accepting.result { logger.error("BitBooks listener failed: \(error)") }
            } onGracefulShutdown: {
                channel.close(promise: nil)
            }
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    /// Serves each connection in a task of its own until the listener closes, then cancels them all.
    private func accept(_ listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>) async throws {
        let open = ConnectionCount(limits: limits)
        try await withThrowingDiscardingTaskGroup { group in
            defer { group.cancelAll() }
            try await listener.executeThenClose { connections in
                for try await connection in connections {
                    let address = connection.channel.remoteAddress?.ipAddress ?? "unknown"
                    let admission = open.admit(from: address)
                    group.addTask {
                        guard admission == .admitted else {
                            if let count = open.refused(address) { logRefusal(of: address, admission, count: count) }
                            return await refuse(connection)
                        }
                        await serve(connection)
                        open.release(from: address)
                    }
                }
            }
        }
    }

    /// Tells the operator a client was turned away: at most one line a minute for each address.
    private func logRefusal(of address: String, _ admission: ConnectionCount.Admission, count: Int) {
        let limit =
            admission == .addressFull
            ? "it already holds \(limits.maxConnectionsPerAddress) connections" : "the server holds \(limits.maxConnections) connections"
        logger.notice("BitBooks refused \(count) connection(s) from \(address): \(limit) (at most one such line a minute for each address)")
    }

    /// Over the limit: one answer saying so, then the connection closes.
    private func refuse(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        try? await connection.executeThenClose { _, outbound in
            try await outbound.write(ByteBuffer(string: Answer.tooManyConnections))
        }
    }

    /// Answers a connection's commands, each answer its text alone in one write (pipelined
    /// commands' answers follow each other with no separator), until it closes, stays silent past
    /// the idle timeout or sends a line too long; then closes its login. When the client ends its
    /// sending side, every command it sent is answered (a line it left unended too) before the connection closes.
    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        var session = BitBooksSession(
            library: library, client: connection.channel.remoteAddress?.ipAddress, logger: logger, bookList: bookList)
        let idle = IdleWatch(timeout: limits.idleTimeout)
        let channel = connection.channel
        do {
            try await connection.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await idle.silence()
                        channel.close(promise: nil)
                    }
                    defer { group.cancelAll() }
                    var framing = CommandFraming()
                    /// Answers each piece in order; false after a line too long (the connection then ends).
                    func answer(_ pieces: [Piece]) async throws -> Bool {
                        for piece in pieces {
                            guard case .command(let bytes) = piece else {
                                try await outbound.write(ByteBuffer(string: Answer.tooLong))
                                return false
                            }
                            idle.working()
                            let answer = await session.answer(BitBooksCommand(bytes))
                            idle.waiting()
                            // A client that never reads its answers stalls this write: the idle clock runs.
                            try await outbound.write(ByteBuffer(string: answer))
                        }
                        return true
                    }
                    for try await read in inbound {
                        guard try await answer(framing.pieces(of: read)) else { return }
                    }
                    _ = try await answer(framing.end())
                }
            }
        } catch {
            logger.debug("BitBooks connection ended: \(error)")
        }
        await session.end()
    }
}

extension BitBooksServer: CustomStringConvertible {
    /// How logs name the service (not its whole library).
    public var description: String { "BitBooksServer(\(host):\(port))" }
}

/// The bounds that keep one client from holding the server.
public struct BitBooksLimits: Sendable {
    /// How long a connection may stay silent before it is closed.
    public var idleTimeout: Duration = .seconds(300)
    /// The most connections served at once; one more is told to try again later and closed.
    public var maxConnections = 256
    /// The kernel's send buffer of each connection: what a client that never reads can leave unread.
    static let sendBufferBytes = 128 * 1_024
    /// The most connections served at once from one client address; one more is refused the same way.
    public var maxConnectionsPerAddress = 16
    public init(idleTimeout: Duration = .seconds(300), maxConnections: Int = 256, maxConnectionsPerAddress: Int = 16) {
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
    }
}

/// The server could not listen on `host:port`; `cause` is the socket's or resolver's error.
public struct BitBooksListenError: Error {
    public let host: String
    public let port: Int
    public let cause: any Error
}

/// Wraps an accepted connection so that dropping it unserved does not trap the process (NIO tears
/// it down on deinit instead; a test saw some such connections stay open until the client left).
/// NIO can accept a connection the listener's stream no longer takes (the listener closing at
/// shutdown: swift-nio issues 2637 and 3481); the non-deprecated wrapper then stops the process
/// with "Deinited NIOAsyncWriter without calling finish()". Served connections are closed by
/// `executeThenClose` as before.
private protocol ConnectionWrapping {
    static func wrap(_ channel: any Channel) throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer>
}

private enum TornDownOnDeinit: ConnectionWrapping {
    // Deprecated by NIO only to discourage relying on deinit: here it is the fallback, never the way connections close.
    @available(*, deprecated, message: "tears down a connection NIO drops unserved")
    static func wrap(_ channel: any Channel) throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try NIOAsyncChannel(synchronouslyWrapping: channel)
    }
}
