import Domain

/// Every event the library records, across aggregates.
public enum DomainEvent: Equatable, Sendable {
    case book(BookEvent)
    case user(UserEvent)
    case emailClaim(EmailClaimEvent)
    case loan(LoanEvent)
    case patron(PatronEvent)
    case inbox(InboxEvent)
    case bookmark(BookmarkEvent)
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

extension UserAggregate: EventSourced {
    public static func wrap(_ event: UserEvent) -> DomainEvent { .user(event) }
    public static func unwrap(_ event: DomainEvent) -> UserEvent? {
        guard case .user(let event) = event else { return nil }
        return event
    }
}

extension EmailClaimAggregate: EventSourced {
    public static func wrap(_ event: EmailClaimEvent) -> DomainEvent { .emailClaim(event) }
    public static func unwrap(_ event: DomainEvent) -> EmailClaimEvent? {
        guard case .emailClaim(let event) = event else { return nil }
        return event
    }
}

extension LoanAggregate: EventSourced {
    public static func wrap(_ event: LoanEvent) -> DomainEvent { .loan(event) }
    public static func unwrap(_ event: DomainEvent) -> LoanEvent? {
        guard case .loan(let event) = event else { return nil }
        return event
    }
}

extension PatronAggregate: EventSourced {
    public static func wrap(_ event: PatronEvent) -> DomainEvent { .patron(event) }
    public static func unwrap(_ event: DomainEvent) -> PatronEvent? {
        guard case .patron(let event) = event else { return nil }
        return event
    }
}

extension StreamName {
    /// The stream of one loan.
    public static func loan(_ id: LoanID) -> StreamName { StreamName("loan-\(id)") }
    /// The stream of a member's active loans.
    public static func patron(_ id: UserID) -> StreamName { StreamName("patron-\(id)") }
    /// The stream of one account.
    public static func user(_ id: UserID) -> StreamName { StreamName("user-\(id)") }
    /// The stream that makes an address unique and throttles logins to it.
    public static func email(_ email: EmailAddress) -> StreamName { StreamName("email-\(email.value)") }
}

extension InboxAggregate: EventSourced {
    public static func wrap(_ event: InboxEvent) -> DomainEvent { .inbox(event) }
    public static func unwrap(_ event: DomainEvent) -> InboxEvent? {
        guard case .inbox(let event) = event else { return nil }
        return event
    }
}

extension StreamName {
    /// The stream of which notices a member has read.
    public static func inbox(_ id: UserID) -> StreamName { StreamName("inbox-\(id)") }
}

extension BookmarkAggregate: EventSourced {
    public static func wrap(_ event: BookmarkEvent) -> DomainEvent { .bookmark(event) }
    public static func unwrap(_ event: DomainEvent) -> BookmarkEvent? {
        guard case .bookmark(let event) = event else { return nil }
        return event
    }
}

extension StreamName {
    /// The stream of a member's bookmarks.
    public static func bookmarks(_ id: UserID) -> StreamName { StreamName("bookmarks-\(id)") }
}
