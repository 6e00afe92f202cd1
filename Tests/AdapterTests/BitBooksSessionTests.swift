import Application
import Composition
import Domain
import Foundation
import Testing

/// A BitBooks client's session from start to end, written from the protocol's description, and
/// the protocol switched on by `serve`.
@Suite("BitBooks protocol: a whole session and serve")
struct BitBooksSessionTests {
    @Test func aScriptedSessionBorrowsARealLoanThatTheAuditVerifies() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.book("Dune", isbn: "9780441172719", copies: 1)
            try await bitbooks.book("Emma", isbn: "9780141439587", copies: 3)
            let client = try bitbooks.connect()

            // A new reader asks for an account, and is sent to the desk.
            #expect(
                try await client.ask("ADD_USER Ada Lovelace ada Member-Pass1")
                    == "Ask a librarian to register you (an account needs an email address); then log in here with your username")
            let member = try await bitbooks.member("ada")
            #expect(try await client.ask("LOGIN ada Member-Pass1") == "Successfully logged")
            #expect(try await client.ask("CHECK_NOTIFICATIONS ada") == "[]")

            // Browse, choose the books with a copy on the shelf, borrow them together.
            let books = try objects(try await client.ask("GET_BOOKS"))
            let free = books.filter { ($0["copies"] as? Int ?? 0) > ($0["given_copies"] as? Int ?? 0) }.compactMap { $0["ISBN"] as? String }
            #expect(free == ["9780441172719", "9780141439587"])
            #expect(try await client.ask("LOAN ada \(free.joined(separator: " "))") == "Loan confirmed")
            let dune = try object(try await client.ask("GET_BOOK 9780441172719"))
            #expect(dune["given_copies"] as? Int == 1)
            // A refusal the protocol has no words for: the library's own sentence, on one line.
            #expect(try await client.ask("LOAN ada 9780441172719") == "“Dune” is asked for twice, or is already borrowed by you")
            try await bitbooks.member("bob")
            let bob = try await bitbooks.loggedIn("bob")
            #expect(try await bob.ask("LOAN bob 9780441172719") == "No more copies available for the book: Dune")
            let loans = try objects(try await client.ask("GET_LOANS ada"))
            #expect(Set(loans.compactMap { $0["isbn"] as? String }) == Set(free))

            // Real loans, by the member, in a log that verifies.
            let active = try await bitbooks.library.circulation.list.active(member: member, by: .cliOperator)
            #expect(active.items.count == 2)
            let loan = try #require(active.items.first)
            let history = try await bitbooks.library.history.execute(.loan(loan.id.description), by: .cliOperator)
            #expect(history.items.first?.actor == "user:\(member)")
            let checks = try await bitbooks.library.verifyLog.execute(by: .cliOperator)
            let failed = checks.filter { !$0.passed }
            #expect(failed.isEmpty, "\(failed)")
        }
    }

    @Test func serveAnswersBitBooksClientsWhenAPortIsGiven() async throws {
        let db = TemporaryDatabase()
        let server = try await ServingShelfmark.start(
            database: db.path, log: db.folder.appendingPathComponent("serve.log"), environment: ["SHELFMARK_BITBOOKS_PORT": "0"])
        let client: BitBooksClient
        do {
            client = try BitBooksClient(port: try await bitbooksPort(in: server.log))
            #expect(try await client.ask("GET_BOOKS") == "[]")
            #expect(try await client.ask("HELLO") == "Unknown command")
        } catch {
            _ = await server.stop()
            throw error
        }
        // SIGTERM with a client still connected: a clean stop, status 0.
        await #expect(server.stop() == 0)
        #expect(await client.closed())
    }

    @Test func aBitBooksPortInUseIsOneClearLine() async throws {
        let db = TemporaryDatabase()
        try await withBitBooks { bitbooks in
            let result = try await shelfmark(["serve", "--port", "0", "--bitbooks-port", "\(bitbooks.port)"], database: db.path)
            #expect(result.status == 2)
            #expect(
                result.stderr
                    == "Error: port \(bitbooks.port) is already in use on 127.0.0.1; stop the other server or choose another port with --bitbooks-port\n"
            )
        }
    }

    /// Found by an outside test: the same port for both was found out only once the library was
    /// open, with an error line about the anchor after the database closed.
    @Test func theHTTPPortGivenToBitBooksTooIsOneClearLineBeforeAnythingOpens() async throws {
        let db = TemporaryDatabase()
        let port = 1 + Int.random(in: 20_000..<30_000)
        let result = try await shelfmark(["serve", "--port", "\(port)", "--bitbooks-port", "\(port)"], database: db.path)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: port \(port) is already in use on 127.0.0.1; stop the other server or choose another port with --bitbooks-port\n"
        )
        #expect(!FileManager.default.fileExists(atPath: db.path), "a server that could not start created a database")
    }

    @Test func aBitBooksAddressOfAnotherMachineNamesTheBitBooksOption() async throws {
        let db = TemporaryDatabase()
        let result = try await shelfmark(
            ["serve", "--port", "0", "--bitbooks-port", "0", "--bitbooks-host", "192.0.2.1"], database: db.path)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("Error: 192.0.2.1 is not an address of this machine; choose one of its addresses with --bitbooks-host"))
        #expect(!FileManager.default.fileExists(atPath: db.path), "a server that could not start created a database")
    }

    @Test func aBadPortSettingIsRefusedNamingIt() throws {
        #expect {
            _ = try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: ["SHELFMARK_BITBOOKS_PORT": "70000"])
        } throws: { error in
            (error as? ConfigurationError)?.english.hasPrefix("SHELFMARK_BITBOOKS_PORT must be ") == true
        }
        let environment = ["SHELFMARK_BITBOOKS_PORT": "7070", "SHELFMARK_BITBOOKS_HOST": "0.0.0.0"]
        let settings = try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: environment).bitbooks
        #expect(settings.port == 7070 && settings.host == "0.0.0.0")
        #expect(try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: [:]).bitbooks.port == nil)
    }
}

/// The port `serve` says it answers BitBooks clients on.
func bitbooksPort(in log: URL) async throws -> Int {
    for _ in 0..<600 {
        let text = try String(contentsOf: log, encoding: .utf8)
        if let range = text.range(of: #"BitBooks clients on 127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
            return Int(text[range].split(separator: ":").last!)!
        }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("the BitBooks server did not start: \(try String(contentsOf: log, encoding: .utf8))")
    throw CancellationError()
}
