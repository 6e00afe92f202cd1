import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// Where a library's PostgreSQL database is, from a `postgres://user:password@host:port/database`
/// URL (`postgresql://` too): the user is required, the port is 5432 unless given, the database
/// is the user's name unless given, `?sslmode=` is `disable`, `prefer` (the default, as libpq's),
/// `require` (encrypted, the server's certificate not checked), `verify-ca` or `verify-full`, and
/// `?host=/folder` reaches the server through its Unix socket in that folder.
public struct PostgresAddress: Sendable, CustomStringConvertible {
    /// The client's configuration for this address.
    public let configuration: PostgresClient.Configuration
    /// The URL without its password, for messages and logs.
    public let description: String
    /// How a single connection is encrypted, as the pool's are (`probe`).
    private let tlsMode: (mode: String, configuration: TLSConfiguration)

    /// Reads a URL; throws `PostgresAddressProblem` naming what is wrong with it.
    public init(_ url: String) throws(PostgresAddressProblem) {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased() else { throw .notAURL }
        guard scheme == "postgres" || scheme == "postgresql" else { throw .scheme(scheme) }
        guard let user = parts.user.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else { throw .noUser }
        let password = parts.password.flatMap { $0.removingPercentEncoding }
        var database = String(parts.percentEncodedPath.drop(while: { $0 == "/" }))
        database = database.removingPercentEncoding ?? database
        if database.isEmpty { database = user }
        guard !database.contains("/") else { throw .database(database) }
        var options: [String: String] = [:]
        for item in parts.queryItems ?? [] {
            guard options[item.name] == nil else { throw .repeated(item.name) }
            options[item.name] = item.value ?? ""
        }
        if let unknown = options.keys.first(where: { !["sslmode", "host"].contains($0) }) { throw .option(unknown) }
        let port = parts.port ?? 5432
        guard (1...65535).contains(port) else { throw .port }
        let mode = options["sslmode"] ?? "prefer"
        let tls = try Self.tls(mode)
        var configuration: PostgresClient.Configuration
        if let socketFolder = options["host"] {
            guard socketFolder.hasPrefix("/") else { throw .socketFolder(socketFolder) }
            configuration = .init(
                unixSocketPath: socketFolder + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            guard let host = parts.host, !host.isEmpty else { throw .noHost }
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            configuration = .init(host: bare, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        tlsMode = (mode, Self.checking(mode))
        var shown = parts
        shown.password = nil
        description = shown.string ?? "postgres://"
    }

    private static func tls(_ mode: String) throws(PostgresAddressProblem) -> PostgresClient.Configuration.TLS {
        switch mode {
        case "disable": return .disable
        case "allow", "prefer": return .prefer(checking(mode))
        case "require", "verify-ca", "verify-full": return .require(checking(mode))
        default: throw .sslMode(mode)
        }
    }

    /// How the server's certificate is checked in a mode: not at all for `prefer` and `require`
    /// (as libpq), its chain for `verify-ca`, its chain and name for `verify-full`.
    private static func checking(_ mode: String) -> TLSConfiguration {
        var checked = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case "verify-full": break
        case "verify-ca": checked.certificateVerification = .noHostnameVerification
        default: checked.certificateVerification = .none
        }
        return checked
    }

    /// Opens one connection and closes it: a server that does not answer, or refuses the user,
    /// password or database, fails at once, where the pool would keep trying.
    func probe(logger: Logger) async throws {
        try await connection(logger: logger).close()
    }

    /// How many events the database's log holds (0 when it has no log yet), read on one
    /// connection without opening the library; `PostgresUnavailable` when it cannot be reached.
    public func storedEvents(logger: Logger) async throws -> Int64 {
        let connection = try await reachable(logger: logger)
        defer { Task { try? await connection.close() } }
        for try await exists in try await connection.query("SELECT to_regclass('events') IS NOT NULL", logger: logger).decode(Bool.self)
        where exists {
            for try await count in try await connection.query("SELECT count(*) FROM events", logger: logger).decode(Int64.self) {
                return count
            }
        }
        return 0
    }

    /// Runs `body` (a copy into this database) holding the database's copy lock, a session lock
    /// on a connection of its own, released when `body` ends or the process dies;
    /// `LogCopyUnderWay` at once when another copy holds it. Two copies at once had each taken
    /// their source's secrets, leaving one source's events under the other's keys.
    public func whileCopying<T: Sendable>(logger: Logger, _ body: () async throws -> T) async throws -> T {
        let connection = try await reachable(logger: logger)
        defer { Task { try? await connection.close() } }
        var taken = false
        for try await got in try await connection.query("SELECT pg_try_advisory_lock(\(PostgresSchema.copyLock))", logger: logger)
            .decode(Bool.self)
        {
            taken = got
        }
        guard taken else { throw LogCopyUnderWay() }
        return try await body()
    }

    /// Forgets the chain key recorded by a database whose log is empty (its first open, `migrate`
    /// or a server's start, recorded the key it was given, which keys nothing yet), so that a copy
    /// brings its source's key instead (found by an outside test: `copy` after `migrate` failed).
    public func forgetKeyOfEmptyLog(logger: Logger) async throws {
        let connection = try await self.connection(logger: logger)
        defer { Task { try? await connection.close() } }
        for try await exists in try await connection.query("SELECT to_regclass('chain_key') IS NOT NULL", logger: logger).decode(Bool.self)
        where exists {
            try await connection.query("DELETE FROM chain_key WHERE NOT EXISTS (SELECT 1 FROM events)", logger: logger)
        }
    }

    /// One connection, or `PostgresUnavailable` naming this address when none can be made.
    private func reachable(logger: Logger) async throws -> PostgresConnection {
        do {
            return try await connection(logger: logger)
        } catch {
            throw PostgresUnavailable(address: description, cause: String(reflecting: error))
        }
    }

    private func connection(logger: Logger) async throws -> PostgresConnection {
        let c = configuration
        var single: PostgresConnection.Configuration
        if let socket = c.unixSocketPath {
            single = .init(unixSocketPath: socket, username: c.username, password: c.password, database: c.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS =
                switch tlsMode.mode {
                case "disable": .disable
                case "allow", "prefer": .prefer(try NIOSSLContext(configuration: tlsMode.configuration))
                default: .require(try NIOSSLContext(configuration: tlsMode.configuration))
                }
            single = .init(
                host: c.host ?? "localhost", port: c.port ?? 5432, username: c.username, password: c.password, database: c.database,
                tls: tls)
        }
        single.options.connectTimeout = .seconds(10)
        return try await PostgresConnection.connect(
            on: PostgresClient.defaultEventLoopGroup.next(), configuration: single, id: 0, logger: logger
        ).get()
    }
}

/// What is wrong with a PostgreSQL URL.
public enum PostgresAddressProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case notAURL
    /// Not `postgres://` or `postgresql://`.
    case scheme(String)
    case noUser
    case noHost
    case port
    /// A database name with a `/` in it.
    case database(String)
    /// A query option other than `sslmode` and `host`.
    case option(String)
    /// An option given twice.
    case repeated(String)
    /// An `sslmode` other than disable, allow, prefer, require, verify-ca, verify-full.
    case sslMode(String)
    /// A `host=` that is not an absolute folder.
    case socketFolder(String)

    /// In English, for logs and tests.
    public var description: String {
        switch self {
        case .notAURL: "not a URL"
        case .scheme(let scheme): "the scheme \(scheme) is not postgres://"
        case .noUser: "the URL names no user"
        case .noHost: "the URL names no host"
        case .port: "the port is not between 1 and 65535"
        case .database(let name): "\(name) is not a database name"
        case .option(let name): "the option \(name) is unknown (sslmode and host are known)"
        case .repeated(let name): "the option \(name) is given twice"
        case .sslMode(let mode): "the sslmode \(mode) is unknown"
        case .socketFolder(let folder): "host=\(folder) is not an absolute folder"
        }
    }
}

/// Another `shelfmark copy` into the same database is under way; this one copied nothing.
public struct LogCopyUnderWay: Error, Equatable, Sendable {
    public init() {}
}
