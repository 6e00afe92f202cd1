import Foundation

/// Tells the time. The core never reads the system clock itself.
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// Makes fresh identifiers. The core never makes its own: ids are injected like time.
public protocol IDGenerator: Sendable {
    /// A new, never-seen UUID.
    func next() -> UUID
}

/// Chance, injected like time: the core never draws its own (retries are jittered with it).
public protocol RandomSource: Sendable {
    /// A number drawn uniformly from 0 (included) to 1 (excluded).
    func unit() -> Double
}
