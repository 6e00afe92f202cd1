import Foundation

/// Tells the time. The core never reads the system clock itself.
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// Makes fresh identifiers. The core never calls `UUID()` itself.
public protocol IDGenerator: Sendable {
    /// A new, never-seen UUID.
    func next() -> UUID
}
