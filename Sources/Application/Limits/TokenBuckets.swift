import Foundation

/// How many attempts a client may make: `burst` at once, then `perMinute`.
public struct AttemptRate: Equatable, Sendable {
    public var burst: Int
    public var perMinute: Double
    public init(burst: Int, perMinute: Double) {
        self.burst = max(1, burst)
        self.perMinute = perMinute
    }
}

/// One token bucket per key (a client address), in memory and bounded: a key that has not been
/// seen since its bucket refilled is forgotten first, since forgetting it changes nothing.
/// The time comes from the caller (the clock port), never from the system.
public final class TokenBuckets: @unchecked Sendable {  // every access to `buckets` holds `lock`
    private struct Bucket {
        var tokens: Double
        var at: Date
    }

    private let rate: AttemptRate
    private let capacity: Int
    private let lock = NSLock()
    private var buckets: [String: Bucket] = [:]

    /// Buckets filling at `rate`, for at most `capacity` keys at once.
    public init(rate: AttemptRate, capacity: Int = 100_000) {
        self.rate = rate
        self.capacity = max(1, capacity)
    }

    /// Takes one token for `key`: nil when the attempt may go ahead, else how long until it may.
    public func take(_ key: String, now: Date) -> TimeInterval? {
        lock.withLock {
            var bucket = refilled(buckets[key], now: now)
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return rate.perMinute > 0 ? (1 - bucket.tokens) * 60 / rate.perMinute : .infinity
            }
            bucket.tokens -= 1
            if buckets[key] == nil, buckets.count >= capacity { evict(now: now) }
            buckets[key] = bucket
            return nil
        }
    }

    private func refilled(_ bucket: Bucket?, now: Date) -> Bucket {
        guard let bucket else { return Bucket(tokens: Double(rate.burst), at: now) }
        let elapsed = max(0, now.timeIntervalSince(bucket.at))
        return Bucket(tokens: min(Double(rate.burst), bucket.tokens + elapsed * rate.perMinute / 60), at: now)
    }

    /// Forgets the buckets that are full again; if none is, the oldest half.
    private func evict(now: Date) {
        buckets = buckets.filter { refilled($0.value, now: now).tokens < Double(rate.burst) }
        if buckets.count >= capacity {
            let cutoff = buckets.values.map(\.at).sorted()[buckets.count / 2]
            buckets = buckets.filter { $0.value.at > cutoff }
        }
    }

    /// How many keys are remembered.
    public var count: Int { lock.withLock { buckets.count } }
}
