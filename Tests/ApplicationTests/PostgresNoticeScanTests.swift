import Application
import Domain
import Foundation
import InMemory
import PostgresStore
import Testing

/// The notice scanner runs on every server of a library: on PostgreSQL, several servers scanning
/// one database at once still issue each notice exactly once (the loan's stream records it, and
/// the append's expected version turns a second server's copy into a conflict it retries into
/// nothing), and every server's notices read model shows it once.
@Suite(
    "PostgreSQL: notices scanned by several servers",
    .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
struct PostgresNoticeScanTests {
    typealias L = LoanRegisterContractTests

    /// The accounts read model, which the scan never reads.
    struct UnusedAccounts: Accounts {
        struct Touched: Error {}
        func account(_ id: UserID) async throws -> AccountSummary? { throw Touched() }
        func list(_ page: PageRequest) async throws -> Page<AccountSummary> { throw Touched() }
        func session(digest: String) async throws -> SessionRecord? { throw Touched() }
        func librarians() async throws -> [UserID] { throw Touched() }
    }

    /// One server's circulation use cases on `library`, on the network's shared clock.
    static func server(_ library: PostgresLibrary, clock: ManualClock, ids: SequentialIDs) -> CirculationUseCases {
        let runner = CommandRunner(store: library.eventStore, clock: clock, ids: ids, random: FixedRandom())
        return CirculationUseCases(
            CirculationDependencies(
                runner: runner, loans: library.loans, notices: library.loans, holds: library.holds, accounts: UnusedAccounts()))
    }

    /// Eight scans at once, alternately on the two servers; the notices they issued in all.
    static func race(_ servers: [CirculationUseCases]) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<8 { group.addTask { try await servers[n % 2].scan.execute(by: .system) } }
            return try await group.reduce(0, +)
        }
    }

    @Test("two servers scanning at once issue each notice once, and both list it once")
    func twoServers() async throws {
        let url = try await PostgresTestServer.freshDatabase()
        let a = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 4)
        let b = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 4)
        let clock = ManualClock(L.start)
        let ids = SequentialIDs()
        let servers = [Self.server(a, clock: clock, ids: ids), Self.server(b, clock: clock, ids: ids)]
        // Ada's six loans are due tomorrow (due soon), Bob's four yesterday (overdue); a walk-in
        // borrower is told nothing, nor is a returned loan, nor one due in ten days.
        var loans: [(LoanID, DomainEvent)] = (1...6).map { (L.loanID($0), L.opened($0, due: L.start + L.day)) }
        loans += (7...10).map { (L.loanID($0), L.opened($0, to: L.bob, name: "Bob", due: L.start - L.day)) }
        loans += [
            (L.loanID(11), L.opened(11, to: nil, name: "Mrs Hudson", due: L.start)),
            (L.loanID(12), L.opened(12, due: L.start + 10 * L.day)),
        ]
        for (id, opened) in loans {
            try await a.eventStore.append([StreamAppend(.loan(id), expected: .noStream, events: [PendingEvent(opened, metadata())])])
        }
        let returned = [L.opened(13, due: L.start), L.returned(13, at: L.start)].map { PendingEvent($0, metadata()) }
        try await b.eventStore.append([StreamAppend(.loan(L.loanID(13)), expected: .noStream, events: returned)])

        // On Emma, Ada's copy was kept until a second ago: it goes to Bob, next in line, who is told once.
        let (kept, next) = (HoldID(L.uuid(0xc1)), HoldID(L.uuid(0xc2)))
        let line: [DomainEvent] = [
            .hold(.placed(HoldPlaced(hold: kept, book: L.emma, bookTitle: "Emma", member: L.ada, memberName: "Ada", at: L.start - L.day))),
            .hold(.placed(HoldPlaced(hold: next, book: L.emma, bookTitle: "Emma", member: L.bob, memberName: "Bob", at: L.start - L.day))),
            .hold(
                .setAside(HoldSetAside(hold: kept, book: L.emma, bookTitle: "Emma", member: L.ada, at: L.start - L.day, until: L.start - 1))
            ),
        ]
        try await a.eventStore.append([StreamAppend(.holds(L.emma), expected: .noStream, events: line.map { PendingEvent($0, metadata()) })]
        )

        #expect(try await Self.race(servers) == 10)
        #expect(try await Self.race(servers) == 0)
        clock.advance(by: 2 * L.day)
        #expect(try await Self.race(servers) == 6, "Ada's loans are overdue now")

        let issued = try await a.eventStore.readAll(after: 0, limit: 1_000).compactMap { event -> String? in
            if case .loan(.noticeIssued(let notice)) = event.event { notice.id } else { nil }
        }
        #expect(issued.count == 16 && Set(issued).count == 16)
        let holds = try await b.eventStore.read(.holds(L.emma)).map(\.event)
        #expect(holds.count == 5, "the kept copy expired once, and was set aside for Bob once")
        #expect(try await b.holds.hold(next)?.status == .ready)
        #expect(try await b.holds.hold(kept)?.status == .expired)
        for library in [a, b] {
            // Ada's own copy set aside told her once before the scans, with the hold line's events, and
            // its expiry once after.
            let adas = try await library.loans.notices(of: L.ada, page: try PageRequest(limit: 100))
            #expect(adas.page.total == 14 && adas.unread == 14 && Set(adas.items.map(\.id)).count == 14)
            #expect(adas.items.filter { $0.kind == .holdExpired }.map(\.hold) == [kept])
            #expect(adas.items.filter { $0.kind == .readyForPickup }.map(\.hold) == [kept])
            let bobs = try await library.loans.notices(of: L.bob, page: .first)
            #expect(bobs.page.total == 5 && bobs.items.filter { $0.kind == .overdue }.count == 4)
            #expect(bobs.items.filter { $0.kind == .readyForPickup }.map(\.id) == ["\(next):ready-for-pickup"])
        }
        await a.close()
        await b.close()
    }
}
