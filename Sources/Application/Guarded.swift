import Foundation

/// A value shared between tasks, read and changed only under its lock (the layer's one way to
/// hold mutable state in a `Sendable` type, as `StateCache` and `TokenBuckets` hold theirs).
final class Guarded<Value>: @unchecked Sendable {  // every access to `value` holds `lock`
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, under the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
