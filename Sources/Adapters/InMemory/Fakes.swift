import Application
import Domain
import Foundation
import Synchronization

/// A clock that stands still until moved: tests decide what time it is.
public final class ManualClock: WallClock, Sendable {
    private let current: Mutex<Date>
    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = Mutex(start) }
    public func now() -> Date { current.withLock { $0 } }
    /// Moves time forward.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// Ids 00000000-0000-0000-0000-000000000001, ...2, ...: predictable in tests.
public final class SequentialIDs: IDGenerator, Sendable {
    private let counter = Mutex<UInt64>(0)
    public init() {}
    public func next() -> UUID {
        let n = counter.withLock { value in
            value += 1
            return value
        }
        return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012llx", n))!
    }
}

/// A store that fails the test that touches it: proves a path does no I/O.
public struct FailingEventStore: EventStore {
    public struct Touched: Error {}
    public init() {}
    /// Names nothing: naming a claim stream is already a use of the store.
    public let claimNames = ClaimNames.unkeyed(FailingPersonalCipher())
    public func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64 { throw Touched() }
    public func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] { throw Touched() }
    public func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] { throw Touched() }
}

/// A cipher that fails the test that touches it: throws where it can, stops the test where it cannot.
public struct FailingPersonalCipher: PersonalCipher {
    public struct Touched: Error {}
    public init() {}
    public func newKey() -> PersonalKey { preconditionFailure("FailingPersonalCipher.newKey was called") }
    public func seal(_ plaintext: Data, with key: PersonalKey, binding context: Data) throws -> Data { throw Touched() }
    public func open(_ sealed: Data, with key: PersonalKey, binding context: Data) throws -> Data { throw Touched() }
    public func keyedDigest(of message: Data, secret: [UInt8]) -> [UInt8] {
        preconditionFailure("FailingPersonalCipher.keyedDigest was called")
    }
}

/// Failed logins in memory, for use-case tests.
public final class InMemoryLoginFailures: LoginFailures, Sendable {
    private struct Key: Hashable {
        let email: String
        let client: String
    }
    private let table = Mutex<[Key: [Date]]>([:])
    public init() {}

    public func failures(email: EmailAddress, client: String, since: Date) async throws -> [Date] {
        table.withLock { $0[Key(email: email.value, client: client), default: []].filter { $0 >= since } }
    }

    public func record(email: EmailAddress, client: String, at: Date, forgetBefore: Date) async throws {
        table.withLock {
            $0[Key(email: email.value, client: client), default: []].append(at)
            for key in $0.keys { $0[key]?.removeAll { $0 < forgetBefore } }
        }
    }

    public func clear(email: EmailAddress, client: String) async throws {
        _ = table.withLock { $0.removeValue(forKey: Key(email: email.value, client: client)) }
    }

    public func forget(email: EmailAddress) async throws {
        table.withLock { $0 = $0.filter { $0.key.email != email.value } }
    }

    public func move(from old: EmailAddress, to new: EmailAddress) async throws {
        table.withLock {
            for key in $0.keys where key.email == old.value {
                $0[Key(email: new.value, client: key.client), default: []] += $0.removeValue(forKey: key) ?? []
            }
        }
    }
}

/// Random numbers that are not random: always `value`, so tests decide the jitter.
public struct FixedRandom: RandomSource {
    let value: Double
    public init(_ value: Double = 0.5) { self.value = value }
    public func unit() -> Double { value }
}
