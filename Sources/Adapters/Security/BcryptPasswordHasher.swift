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

    public func verify(_ password: String, against hash: String) async -> Bool {
        (try? await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }) ?? false
    }
}
