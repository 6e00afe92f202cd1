import Application
import Domain
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import PostgresStore

/// A database that stops answering while the library runs: each statement is `StoreUnreachable`
/// (a 503 to the API's clients) after a bounded wait, not the driver's error after a minute.
/// `.ci/faults --only dbdown` stops and starts a real server under a running `serve`.
@Suite("PostgreSQL out of reach")
struct PostgresOutOfReachTests {
    @Test func aPoolThatGetsNoConnectionSaysTheStoreIsUnreachableAfterTheWaitThenAtOnce() async throws {
        // Given a pool whose server refuses every connection (nothing listens on port 1)
        let address = try PostgresAddress("postgres://shelfmark@127.0.0.1:1/library?sslmode=disable")
        let pool = PostgresPool(PostgresClient(configuration: address.configuration, backgroundLogger: Logger(label: "test")))
        let running = Task { await pool.run() }
        defer { running.cancel() }
        let logger = Logger(label: "test")

        // When a statement is run, it is told the store is unreachable, once it has waited
        // (how soon, on a quiet machine, is `.ci/faults dbdown`'s to measure: a timed check here
        // would fail whenever the suite's thousand tests starve its timer)
        #expect(pool.nextWait == OutOfReach.wait)
        let clock = ContinuousClock()
        let first = clock.now
        await #expect(throws: StoreUnreachable.self) { try await pool.session(logger) { try await $0.value("SELECT 1", as: Int.self) } }
        #expect(clock.now - first >= OutOfReach.wait)

        // And while it is out, the next statement waits the shorter time, and is told the same
        #expect(pool.nextWait == OutOfReach.waitWhileOut)
        await #expect(throws: StoreUnreachable.self) { try await pool.session(logger) { try await $0.value("SELECT 1", as: Int.self) } }
    }

    @Test func aConnectionLostUnderAStatementIsUnreachableAndOtherErrorsStayThemselves() {
        struct Refusal: Error {}
        #expect(OutOfReach.said(Refusal(), leased: false) is StoreUnreachable, "no connection came")
        #expect(OutOfReach.said(Refusal(), leased: true) is Refusal, "the statement's own error")
        let conflict = AppendConflict(stream: .book(BookID(UUID())), expected: .noStream, actual: 1)
        #expect(OutOfReach.said(conflict, leased: true) is AppendConflict)
        #expect(OutOfReach.said(CancellationError(), leased: false) is CancellationError)
    }
}
