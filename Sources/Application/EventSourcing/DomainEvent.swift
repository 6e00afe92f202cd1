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
    case isbnClaim(ISBNClaimEvent)
    case hold(HoldEvent)
    case cardClaim(CardClaimEvent)
    case walkIn(WalkInEvent)
    case usernameClaim(UsernameClaimEvent)
    case appKey(AppKeyEvent)

    /// Every aggregate in the log: `EventCodec` reads the stored names each declares.
    static let aggregates: [any EventSourced.Type] = [
        BookAggregate.self, UserAggregate.self, EmailClaimAggregate.self, LoanAggregate.self, PatronAggregate.self,
        InboxAggregate.self, BookmarkAggregate.self, ISBNClaimAggregate.self, HoldQueueAggregate.self, CardClaimAggregate.self,
        WalkInAggregate.self, UsernameClaimAggregate.self, AppKeyAggregate.self,
    ]
}

/// An aggregate whose events live in the shared log as one case of `DomainEvent`.
public protocol EventSourced: Aggregate where Event: StoredEvent {
    /// Its case of `DomainEvent`.
    static var logCase: LogCase<Event> { get }
}

extension EventSourced {
    /// Lifts one of this aggregate's events into the log's event type.
    public static func wrap(_ event: Event) -> DomainEvent { logCase.wrap(event) }
    /// This aggregate's event, or nil when the log event belongs to another aggregate.
    public static func unwrap(_ event: DomainEvent) -> Event? { logCase.unwrap(event) }
}

/// One case of `DomainEvent`: how an aggregate's event goes in and comes back out.
public struct LogCase<Event: Sendable>: Sendable {
    let wrap: @Sendable (Event) -> DomainEvent
    let unwrap: @Sendable (DomainEvent) -> Event?

    init(_ wrap: @escaping @Sendable (Event) -> DomainEvent, unwrap: @escaping @Sendable (DomainEvent) -> Event?) {
        self.wrap = wrap
        self.unwrap = unwrap
    }
}

// Each aggregate's case of the log and its streams, one place per aggregate.

extension BookAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.book) { if case .book(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of one catalogue book.
    public static func book(_ id: BookID) -> StreamName { StreamName("book-\(id)") }
}

extension UserAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.user) { if case .user(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of one account.
    public static func user(_ id: UserID) -> StreamName { StreamName("user-\(id)") }
}

extension EmailClaimAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.emailClaim) { if case .emailClaim(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream that makes an address unique and throttles logins to it.
    public static func email(_ email: EmailAddress) -> StreamName { StreamName("email-\(email.value)") }
}

extension LoanAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.loan) { if case .loan(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of one loan.
    public static func loan(_ id: LoanID) -> StreamName { StreamName("loan-\(id)") }
}

extension PatronAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.patron) { if case .patron(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of a member's active loans.
    public static func patron(_ id: UserID) -> StreamName { StreamName("patron-\(id)") }
}

extension InboxAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.inbox) { if case .inbox(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of which notices a member has read.
    public static func inbox(_ id: UserID) -> StreamName { StreamName("inbox-\(id)") }
}

extension BookmarkAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.bookmark) { if case .bookmark(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of a member's bookmarks.
    public static func bookmarks(_ id: UserID) -> StreamName { StreamName("bookmarks-\(id)") }
}

extension ISBNClaimAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.isbnClaim) { if case .isbnClaim(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of the catalogue books that carry one ISBN.
    public static func isbn(_ isbn: ISBN) -> StreamName { StreamName("isbn-\(isbn.isbn13)") }
}

extension HoldQueueAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.hold) { if case .hold(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of one book's waiting list.
    public static func holds(_ book: BookID) -> StreamName { StreamName("holds-\(book)") }
}

extension CardClaimAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.cardClaim) { if case .cardClaim(let e) = $0 { e } else { nil } }
}

extension WalkInAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.walkIn) { if case .walkIn(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of one walk-in borrower's loans, by the name's key (`WalkInName.key`).
    public static func walkIn(_ name: String) -> StreamName { StreamName("walkin-\(WalkInName.key(name))") }
}

extension UsernameClaimAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.usernameClaim) { if case .usernameClaim(let e) = $0 { e } else { nil } }
}

extension AppKeyAggregate: EventSourced {
    public static let logCase = LogCase(DomainEvent.appKey) { if case .appKey(let e) = $0 { e } else { nil } }
}

extension StreamName {
    /// The stream of one app key (a capability of an old client app, such as the Prolific apps').
    public static func appKey(_ id: AppKeyID) -> StreamName { StreamName("app-key-\(id)") }
}
