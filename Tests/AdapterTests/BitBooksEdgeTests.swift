import Application
import Domain
import Foundation
import Logging
import Synchronization
import Testing

@testable import BitBooks

/// What an outside tester found: a client that closes its sending side, logins by address,
/// passwords with spaces, one address holding every slot, blank-looking lines and echoed junk.
@Suite("BitBooks protocol: edges")
struct BitBooksEdgeTests {
    /// Found by an outside test: a long pipelined write put a `LOAN` across the end of the 8 KiB
    /// receive buffer, and its first part ran alone, lending a book the whole command could not have.
    @Test func aLoanCutByTheEndOfTheReceiveBufferRunsWholeOrNotAtAll() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.book("Dune", isbn: "9780000001061")
            try await bitbooks.book("Scarce", isbn: "9780000001078")
            try await bitbooks.member("bob")
            try await bitbooks.member("carol")
            #expect(try await bitbooks.loggedIn("bob").ask("LOAN bob 9780000001078") == "Loan confirmed")
            let carol = try await bitbooks.loggedIn("carol")
            // Unknown commands fill the buffer up to the cut, right after the LOAN's first ISBN.
            let cut = "LOAN carol 9780000001061"
            let room = CommandFraming.readBytes - cut.utf8.count
            let lines = room / 6
            let padding = String(repeating: "HELLO\n", count: lines - 1) + "HELLO" + String(repeating: " ", count: room - lines * 6) + "\n"
            try carol.send(padding + cut + " 9780000001078\nGET_LOANS carol\n")
            let refused = "No more copies available for the book: Scarce"
            let expected = Array(repeating: "Unknown command", count: lines) + [refused, "[]"]
            #expect(await carol.answers(expected) == expected.joined())
        }
    }

    @Test func aClientThatEndsItsSendingSideGetsEveryAnswerThenTheConnectionCloses() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.book("Dune", isbn: "9780000001061")
            try await bitbooks.member("carol", password: "Member-Pass3")
            let client = try bitbooks.connect()
            // The last command has no newline: the end of the input ends it.
            try client.send("LOGIN carol Member-Pass3\nLOAN carol 9780000001061")
            client.finishSending()
            #expect(await client.answers(["Successfully logged", "Loan confirmed"]) == "Successfully loggedLoan confirmed")
            #expect(await client.closed())
            let dune = try await bitbooks.library.catalogue.listBooks.execute(CatalogueQuery())
            #expect(dune.items.first?.onLoan == 1)

            // As `printf 'GET_BOOKS\n' | nc -N` sends it.
            let once = try bitbooks.connect()
            try once.send("GET_BOOKS\n")
            once.finishSending()
            #expect(try objects(await once.answer()).count == 1)
        }
    }

    @Test func theLoggedInAccountIsNamedByTheLoginTypedItsAddressOrItsUsername() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.member("ada")
            let byAddress = try await bitbooks.loggedIn("ada@example.org")
            for name in ["ada@example.org", "ADA@Example.org", "ada", "Ada"] {
                #expect(try await byAddress.ask("GET_LOANS \(name)") == "[]", "\(name)")
            }
            #expect(try await byAddress.ask("GET_LOANS bob@example.org") == "You are not logged in as bob@example.org")
            let byName = try await bitbooks.loggedIn("ADA")
            #expect(try await byName.ask("GET_LOANS ada@example.org") == "[]")
            #expect(try await byName.ask("CHECK_NOTIFICATIONS ada@example.org") == "[]")

            // An account with no username is named by its address only.
            let form = SignupForm(email: "lib@example.org", password: BitBooksHarness.password, country: "FR")
            _ = try await bitbooks.library.accounts.signUp.execute(form, openSession: false, by: .cliOperator)
            let noName = try await bitbooks.loggedIn("lib@example.org")
            #expect(try await noName.ask("GET_LOANS lib@example.org") == "[]")
            #expect(try await noName.ask("GET_LOANS Lib@Example.org") == "[]")
            #expect(try await noName.ask("GET_LOANS lib") == "You are not logged in as lib")
        }
    }

    @Test func aPasswordIsTheRestOfTheLineSpacesIncluded() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.member("spacey", password: "Space Pass-12")
            let client = try bitbooks.connect()
            #expect(try await client.ask("LOGIN spacey Space Pass-12") == "Successfully logged")
            #expect(try await client.ask("LOGIN spacey Space  Pass-12") == "Failed login")
            #expect(try await client.ask("LOGIN spacey") == "Wrong arguments: LOGIN USERNAME PASSWORD")
            #expect(
                try await client.ask("ADD_USER Grace Hopper grace Secret Pass-12")
                    == "Ask a librarian to register you (an account needs an email address); then log in here with your username")
            #expect(try await client.ask("ADD_USER Grace Hopper grace") == "Wrong arguments: ADD_USER NAME SURNAME USERNAME PASSWORD")
        }
    }

    @Test func oneAddressCannotHoldEverySlotAndRefusalsAreLogged() async throws {
        let lines = LogLines()
        let logger = Logger(label: "bitbooks-test") { _ in lines }
        let limits = BitBooksLimits(idleTimeout: .seconds(60), maxConnections: 256, maxConnectionsPerAddress: 3)
        try await withBitBooks(limits: limits, logger: logger) { bitbooks in
            var held: [BitBooksClient] = []
            for _ in 0..<3 {
                let client = try bitbooks.connect()
                #expect(try await client.ask("GET_BOOKS") == "[]")
                held.append(client)
            }
            for _ in 0..<4 {
                let refused = try bitbooks.connect()
                #expect(await refused.answer() == "Too many connections: try again later")
                #expect(await refused.closed())
            }
            // Four refusals, one line for the operator.
            let notices = lines.all.filter { $0.contains("BitBooks refused") }
            #expect(
                notices == [
                    "BitBooks refused 1 connection(s) from 127.0.0.1: it already holds 3 connections (at most one such line a minute for each address)"
                ])
            held.removeAll()  // closed: their slots free up
            var served = false
            for _ in 0..<100 where !served {
                served = try await bitbooks.connect().ask("GET_BOOKS") == "[]"
                if !served { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(served)
        }
    }

    @Test func blankLookingLinesAreSkippedAndEchoedISBNsAreShort() async throws {
        try await withBitBooks { bitbooks in
            let client = try bitbooks.connect()
            try client.send("  \t \n \r\nGET_BOOKS\n")
            #expect(await client.answer() == "[]")
            let junk = String(repeating: "7", count: 4_000)
            #expect(try await client.ask("GET_BOOK \(junk)") == "No book with ISBN 77777777777777777777…")
            #expect(try await client.ask("GET_BOOK 9780000000002") == "No book with ISBN 9780000000002")
        }
    }
}

/// Every line logged, at any level.
final class LogLines: LogHandler, @unchecked Sendable {  // the lines behind a mutex; the rest set once
    private let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var all: [String] { lines.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lines.withLock { $0.append("\(event.message)") } }
}

/// `GET_BOOKS` for a crowd: one computation at a time, shared by those who asked before it began.
@Suite("BitBooks protocol: a shared book list")
struct BitBooksSharedAnswerTests {
    @Test func askersWhileOneComputationRunsShareTheNextOneAndNoneGetsAnOlderAnswer() async throws {
        let shared = SharedAnswer()
        let runs = Mutex(0)
        let (started, startedSignal) = AsyncStream.makeStream(of: Int.self)
        // Each computation waits until the test lets it end.
        let gates = [AsyncStream.makeStream(of: Void.self), AsyncStream.makeStream(of: Void.self)]
        let passes = gates.map(\.stream)
        let compute: @Sendable () async throws -> String = {
            let run = runs.withLock { count in
                count += 1
                return count
            }
            startedSignal.yield(run)
            for await _ in passes[run - 1] { break }
            return "answer \(run)"
        }
        var begun = started.makeAsyncIterator()
        async let first = shared.answer(compute)
        #expect(await begun.next() == 1)
        // Nine more ask while the first runs: one of them asks for the next computation, the rest join it.
        let later = Task {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<9 { group.addTask { try await shared.answer(compute) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        while await shared.joined < 8 { await Task.yield() }
        gates[0].continuation.yield()
        #expect(try await first == "answer 1")
        #expect(await begun.next() == 2)
        gates[1].continuation.yield()
        #expect(try await later.value == Array(repeating: "answer 2", count: 9))
        #expect(runs.withLock { $0 } == 2)
    }
}

/// Stopping the server while connections wait to be taken: NIO may accept one the stopped
/// listener no longer hands over; it must not bring the process down (it did: "Deinited
/// NIOAsyncWriter without calling finish()", a trap that ends this test run).
@Suite("BitBooks protocol: stopping under a crowd")
struct BitBooksStopTests {
    @Test func theServerStopsWhileConnectionsWaitToBeTaken() async throws {
        for _ in 0..<5 {
            let crowd = try await withBitBooks { bitbooks in
                try await offPool { try (0..<200).map { _ in try RawConnection(port: bitbooks.port) } }
            }
            #expect(crowd.count == 200)
        }
        // The process is still here, and a new server answers.
        #expect(try await withBitBooks { try await $0.connect().ask("GET_BOOKS") } == "[]")
    }
}
