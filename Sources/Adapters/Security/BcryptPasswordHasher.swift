import Application
import HummingbirdBcrypt
import NIOPosix

/// bcrypt (cost 12 by default) on NIO's blocking thread pool, so hashing never stalls the
/// cooperative threads that serve requests.
public struct BcryptPasswordHasher: PasswordHasher {
    let cost: UInt8

    public init(cost: UInt8 = 12) {
        self.cost = min(max(cost, 4), 31)
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// False for a password holding a NUL, which no password set here holds: bcrypt reads a C
    /// string and stops there, so `Analytical-1\u{0}garbage` matched `Analytical-1` (found by an
    /// outside walk).
    public func verify(_ password: String, against hash: String) async -> Bool {
        guard !password.utf8.contains(0) else { return false }
        return (try? await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }) ?? false
    }
}
