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

        #expect(try await Self.race(servers) == 10)
        #expect(try await Self.race(servers) == 0)
        clock.advance(by: 2 * L.day)
        #expect(try await Self.race(servers) == 6, "Ada's loans are overdue now")

        let issued = try await a.eventStore.readAll(after: 0, limit: 1_000).compactMap { event -> String? in
            if case .loan(.noticeIssued(let notice)) = event.event { notice.id } else { nil }
        }
        #expect(issued.count == 16 && Set(issued).count == 16)
        for library in [a, b] {
            let adas = try await library.loans.notices(of: L.ada, page: try PageRequest(limit: 100))
            #expect(adas.page.total == 12 && adas.unread == 12 && Set(adas.items.map(\.id)).count == 12)
            #expect(Set(adas.items.map(\.kind)) == [.dueSoon, .overdue])
            let bobs = try await library.loans.notices(of: L.bob, page: .first)
            #expect(bobs.page.total == 4 && bobs.items.allSatisfy { $0.kind == .overdue })
        }
        await a.close()
        await b.close()
    }
}
