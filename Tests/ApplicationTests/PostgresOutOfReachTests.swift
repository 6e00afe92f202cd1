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

        // When a statement is run, it is told the store is unreachable once the wait is over
        let clock = ContinuousClock()
        let first = clock.now
        await #expect(throws: StoreUnreachable.self) { try await pool.session(logger) { try await $0.value("SELECT 1", as: Int.self) } }
        let waited = clock.now - first
        // (the pool itself gives up after a minute: well before that, even on a loaded machine)
        #expect(waited >= OutOfReach.wait && waited < .seconds(30), "\(waited)")

        // And while it is out, the next statement is told after the shorter wait
        let second = clock.now
        await #expect(throws: StoreUnreachable.self) { try await pool.session(logger) { try await $0.value("SELECT 1", as: Int.self) } }
        let again = clock.now - second
        #expect(again >= OutOfReach.waitWhileOut && again < waited, "\(again) after \(waited)")
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
