import Domain

/// The history of one aggregate: the events of its stream in order, a page at a time, readable:
/// who did each (by name and email), what it changed (`PayloadFold` says how), and its payload with
/// the secrets redacted.
/// Librarians and the operator only.
public struct AggregateHistory: Sendable {
    let archive: any LogArchive
    let members: MemberDirectory
    let names: ActorNames

    public init(archive: any LogArchive, members: MemberDirectory) {
        self.archive = archive
        self.members = members
        self.names = ActorNames(members.deps)
    }

    /// What to show the history of.
    public enum Subject: Sendable {
        case book(String), member(email: String), loan(String), stream(String)
    }

    /// One page of the subject's events, oldest first; a subject with no events is not found.
    public func execute(_ subject: Subject, page: PageRequest = .first, by principal: Principal) async throws -> Page<HistoryEntry> {
        try Authorization.require(.showHistory, by: principal)
        let stream: StreamName
        switch subject {
        case .book(let id): stream = .book(try BookID.parse(id))
        case .member(let email): stream = .user(try await members.find(email, by: principal))
        case .loan(let id):
            guard let loan = LoanID(id) else { throw NotFound(.loan, id) }
            stream = .loan(loan)
        case .stream(let name): stream = StreamName(name)
        }
        let events = try await archive.history(stream, page: page)
        if events.total == 0 { throw NotFound(.stream, stream.rawValue) }
        var fold = PayloadFold()
        if let first = events.items.first, first.version > 1 {
            for earlier in try await archive.events(stream, before: first.version) {
                _ = fold.changes(Self.payload(earlier), type: earlier.type, secrets: [])
            }
        }
        let actors = try await names.names(of: events.items.map(\.actor))
        return await events.with { items in
            items.map { event in
                let payload = Self.payload(event)
                let changes = fold.changes(payload, type: event.type, secrets: Secrets.fields(of: event.type))
                return HistoryEntry(event, actorName: actors[event.actor] ?? .unknownMember, payload: payload, changes: changes)
            }
        }
    }

    /// An event's payload as an object, its secrets redacted.
    static func payload(_ event: LoggedEvent) -> [String: PayloadValue] {
        Secrets.redact(type: event.type, PayloadValue.object(parsing: event.payload) ?? [:])
    }
}
