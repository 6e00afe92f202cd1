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
