import Foundation

/// Remembers what a geolocator answered for each address: a country for a day, "unknown" for a
/// few minutes (it may have been a passing failure), for at most `capacity` addresses. The
/// service is then asked at most once a day per address, whoever reloads the signup form.
public final class CachedGeolocator: IPGeolocator, @unchecked Sendable {  // `answers` is guarded by `lock`
    private struct Answer {
        let country: String?
        let until: Date
    }

    private let source: any IPGeolocator
    private let clock: any WallClock
    private let capacity: Int
    private let known: TimeInterval
    private let unknown: TimeInterval
    private let lock = NSLock()
    private var answers: [String: Answer] = [:]

    /// Caches `source`'s answers: countries for `known` seconds, unknowns for `unknown` seconds.
    public init(
        _ source: any IPGeolocator, clock: any WallClock, capacity: Int = 10_000, known: TimeInterval = 24 * 3600,
        unknown: TimeInterval = 600
    ) {
        self.source = source
        self.clock = clock
        self.capacity = max(1, capacity)
        self.known = known
        self.unknown = unknown
    }

    public func country(for ip: String) async -> String? {
        let now = clock.now()
        if let answer = lock.withLock({ answers[ip] }), answer.until > now { return answer.country }
        let country = await source.country(for: ip)
        let answer = Answer(country: country, until: now.addingTimeInterval(country == nil ? unknown : known))
        lock.withLock {
            if answers[ip] == nil, answers.count >= capacity {
                answers = answers.filter { $0.value.until > now }
                if answers.count >= capacity {
                    let cutoff = answers.values.map(\.until).sorted()[answers.count / 2]
                    answers = answers.filter { $0.value.until > cutoff }
                }
            }
            answers[ip] = answer
        }
        return country
    }

    /// How many addresses are remembered.
    public var count: Int { lock.withLock { answers.count } }
}
