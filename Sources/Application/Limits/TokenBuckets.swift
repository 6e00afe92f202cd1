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
    public func take(_ key: String, now: Date) -> TimeInterval? { admit(key, now: now).wait }

    /// What taking one token for `key` said: whether it may go ahead (`wait` nil) or how long until
    /// it may, the whole tokens left, and how long until the bucket is full again.
    public struct Admission: Equatable, Sendable {
        public let wait: TimeInterval?
        public let remaining: Int
        public let untilFull: TimeInterval
    }

    /// Takes one token for `key`, saying what is left (for `RateLimit-*` answers).
    public func admit(_ key: String, now: Date) -> Admission {
        lock.withLock {
            var bucket = refilled(buckets[key], now: now)
            let wait: TimeInterval?
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                wait = nil
                if buckets[key] == nil, buckets.count >= capacity { evict(now: now) }
            } else {
                wait = rate.perMinute > 0 ? (1 - bucket.tokens) * 60 / rate.perMinute : .infinity
            }
            buckets[key] = bucket
            let missing = Double(rate.burst) - bucket.tokens
            return Admission(
                wait: wait, remaining: Int(bucket.tokens.rounded(.down)),
                untilFull: rate.perMinute > 0 ? missing * 60 / rate.perMinute : .infinity)
        }
    }

    /// The most tokens a key holds.
    public var burst: Int { rate.burst }

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
