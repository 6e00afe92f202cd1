import Domain
import Foundation

/// Rebuilds the read models from the log into a separate database, optionally stopping in the past.
public struct ReplayLog: Sendable {
    let replayer: any LogReplayer

    public init(replayer: any LogReplayer) { self.replayer = replayer }

    public func execute(
        into path: String, until: ReplayLimit = .end, by principal: Principal,
        progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }
    ) async throws -> Int64 {
        try Authorization.require(.replayLog, by: principal)
        // An empty path names no file (found by an outside walk: it left a `.lock` where the command ran).
        guard !path.isEmpty else { throw InvalidInput("into", .required) }
        // A position before the first event's (found by an outside walk: `--until=-1` replayed nothing, and said so as a success).
        if case .position(let position) = until, position < 0 { throw InvalidInput("until", .tooSmall(min: 0)) }
        return try await replayer.replay(into: path, until: until, progress: progress)
    }
}

/// What the library looked like at a past moment: the catalogue, who had which book, one member,
/// or who was waiting for a book.
public struct TimeTravel: Sendable {
    let replayer: any LogReplayer
    let members: MemberDirectory

    public init(replayer: any LogReplayer, members: MemberDirectory) {
        self.replayer = replayer
        self.members = members
    }

    public enum View: Sendable, Equatable {
        case books, loans, member(email: String)
        /// A book's waiting list.
        case holds(book: BookID)
    }

    /// The answer: only the parts of the requested view are filled.
    public struct Answer: Sendable {
        public var books: [CatalogueEntry] = []
        public var loans: [LoanSummary] = []
        public var notices: [NoticeSummary] = []
        public var account: AccountSummary?
        /// A book's waiting list, in the order of the line.
        public var holds: [HoldSummary] = []
        public var events: Int64 = 0
        /// The members the answer names (borrowers, members in line), as the accounts say now:
        /// an account erased since reads "erased member" in the past too.
        public var people: [UserID: ActorName] = [:]
    }

    public func execute(at moment: Date, view: View, by principal: Principal) async throws -> Answer {
        try Authorization.require(.timeTravel, by: principal)
        var member: UserID?
        if case .member(let email) = view { member = try await members.find(email, by: principal) }
        var answer = try await replayer.withSnapshot(until: .time(moment)) { snapshot in
            var answer = Answer(events: snapshot.events)
            switch view {
            case .books:
                answer.books = try await Page.all { try await snapshot.catalogue.page(CatalogueQuery(sort: .title), $0) }
            case .loans:
                answer.loans = try await snapshot.loans.loans(LoanFilter())
            case .member:
                guard let member else { break }
                answer.account = try await snapshot.accounts.account(member)
                answer.loans = try await snapshot.loans.loans(LoanFilter(member: member, includeReturned: true))
                answer.notices = try await Page.all { try await snapshot.notices.notices(of: member, page: $0).page }
            case .holds(let book):
                answer.holds = try await Page.all { try await snapshot.holds.holds(HoldFilter(book: book), page: $0) }
            }
            return answer
        }
        let names = ActorNames(members.deps)
        for person in Set(answer.loans.compactMap(\.borrower) + answer.holds.map(\.member)) {
            answer.people[person] = try await names.name(of: person)
        }
        return answer
    }
}
