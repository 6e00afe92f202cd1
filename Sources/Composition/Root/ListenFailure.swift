import Application
import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why `serve` cannot listen where it was told to, said so that the operator knows what to change
/// (the catalogue words it; the socket call's own words, `bind(descriptor:ptr:bytes:)` and
/// `errno: 98`, go no further).
typealias ListenFailure = ListenProblem

extension ListenProblem {
    /// As the command line reports a setting it cannot use: one line, exit status 2.
    var configurationError: ConfigurationError { ConfigurationError(.cannotListen(self)) }

    /// The failure `errno` from `bind` stands for, or nil when it is none of these.
    static func of(errno: Int32, host: String, port: Int) -> ListenFailure? {
        switch errno {
        case EADDRINUSE: .portInUse(host: host, port: port)
        case EACCES, EPERM: .portNeedsPrivilege(host: host, port: port)
        case EADDRNOTAVAIL: .notAnAddressHere(host: host)
        default: nil
        }
    }

    /// The failure an error of the server's start stands for (NIO's bind or resolver error), or nil.
    static func of(_ error: any Error, host: String, port: Int) -> ListenFailure? {
        if let error = error as? IOError { return of(errno: error.errnoCode, host: host, port: port) }
        if error is SocketAddressError.UnknownHost || error is SocketAddressError { return .unknownHost(host) }
        return nil
    }

    /// Binds `host:port` for a moment as the server will (the first address the name resolves
    /// to, `SO_REUSEADDR`), before anything is opened, so a port in use is said in one line and
    /// no database is created for a server that cannot start. Nil when it could bind.
    static func probe(host: String, port: Int) -> ListenFailure? {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = streamSocket
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found?.pointee else { return .unknownHost(host) }
        defer { freeaddrinfo(found) }
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { return nil }  // no socket to try with: the server will say what it finds
        defer { close(descriptor) }
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, address.ai_addr, address.ai_addrlen) != 0 else { return nil }
        return of(errno: errno, host: host, port: port)
    }

    #if canImport(Glibc) || canImport(Musl)
        private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
        private static let streamSocket = SOCK_STREAM
    #endif
}
