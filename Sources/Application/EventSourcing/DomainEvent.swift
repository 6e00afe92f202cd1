import Domain

/// Every event the library records, across aggregates.
public enum DomainEvent: Equatable, Sendable {
    case book(BookEvent)
}

/// An aggregate whose events live in the shared log as `DomainEvent`s.
public protocol EventSourced: Aggregate {
    /// Lifts one of this aggregate's events into the log's event type.
    static func wrap(_ event: Event) -> DomainEvent
    /// This aggregate's event, or nil when the log event belongs to another aggregate.
    static func unwrap(_ event: DomainEvent) -> Event?
}

extension BookAggregate: EventSourced {
    public static func wrap(_ event: BookEvent) -> DomainEvent { .book(event) }
    public static func unwrap(_ event: DomainEvent) -> BookEvent? {
        guard case .book(let event) = event else { return nil }
        return event
    }
}
