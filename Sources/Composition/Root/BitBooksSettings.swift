import Application
import BitBooks
import Foundation
import Logging
import ServiceLifecycle

/// Where `serve` answers BitBooks clients: nowhere unless a port is given.
public struct BitBooksSettings: Sendable, Equatable {
    /// `--bitbooks-port`, `$SHELFMARK_BITBOOKS_PORT` (0: a free one); nil: the protocol is off.
    public var port: Int?
    /// `--bitbooks-host`, `$SHELFMARK_BITBOOKS_HOST`.
    public var host = "127.0.0.1"
    /// How long a connection may stay silent, and how many are served at once.
    public var idleTimeout: Duration = .seconds(300)
    public var maxConnections = 256

    public init() {}

    static let portSetting = NumericSetting("SHELFMARK_BITBOOKS_PORT", 0...65_535, whole: true)

    /// The settings from the environment, each checked once: a bad one is one line naming it.
    static func resolve(environment: [String: String]) throws -> BitBooksSettings {
        var settings = BitBooksSettings()
        settings.port = try portSetting.readInt(environment)
        if let host = environment["SHELFMARK_BITBOOKS_HOST"]?.trimmingCharacters(in: .whitespaces), !host.isEmpty { settings.host = host }
        return settings
    }

    /// These settings with `serve`'s options (nil: not given) over them.
    public func overridden(port: Int?, host: String?) -> BitBooksSettings {
        var settings = self
        if let port { settings.port = port }
        if let host, !host.isEmpty { settings.host = host }
        return settings
    }

    /// The BitBooks server these settings ask for, if any, as a list to add to the server's services.
    static func services(_ configuration: ShelfmarkConfiguration, library: Library, logger: Logger) -> [any Service] {
        let settings = configuration.bitbooks
        guard let port = settings.port else { return [] }
        let limits = BitBooksLimits(idleTimeout: settings.idleTimeout, maxConnections: settings.maxConnections)
        return [
            BitBooksServer(library: library, host: settings.host, port: port, limits: limits, logger: logger) { port in
                logger.info(
                    "Shelfmark is serving BitBooks clients on \(settings.host):\(port) (at most \(limits.maxConnections) connections, \(limits.maxConnectionsPerAddress) from one address)"
                )
            }
        ]
    }
}

extension ListenProblem {
    /// The failure a BitBooks server's start stands for, or nil; said with the BitBooks options.
    static func of(bitbooks error: any Error) -> ListenFailure? {
        guard let error = error as? BitBooksListenError else { return nil }
        return of(error.cause, host: error.host, port: error.port).map { .bitbooks($0) }
    }

    /// `probe` of the BitBooks address these settings name, if any; said with the BitBooks options.
    static func probe(_ settings: BitBooksSettings) -> ListenFailure? {
        guard let port = settings.port else { return nil }
        return probe(host: settings.host, port: port).map { .bitbooks($0) }
    }
}
