import Application
import Domain
import Foundation
import Testing
import Wording

/// Every command of the BitBooks protocol and every answer its clients compare, over a real
/// socket, against the library the composition root opens.
@Suite("BitBooks protocol: commands and answers")
struct BitBooksProtocolTests {
    @Test func logInByUsernameOrEmailAndFailedLogins() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.member("ada")
            let client = try bitbooks.connect()
            #expect(try await client.ask("LOGIN ada Member-Pass1") == "Successfully logged")
            #expect(try await client.ask("LOGIN ada@example.org Member-Pass1") == "Successfully logged")
            #expect(try await client.ask("LOGIN ada wrong-password") == "Failed login")
            #expect(try await client.ask("LOGIN nobody Member-Pass1") == "Failed login")
            // A failed login logs the connection out.
            #expect(try await client.ask("GET_LOANS ada") == "Log in first: LOGIN USERNAME PASSWORD")
        }
    }

    @Test func addUserCountsAgainstTheAddresssSignupAttempts() async throws {
        try await withBitBooks(attemptsPerMinute: 5) { bitbooks in
            let client = try bitbooks.connect()
            for n in 0..<5 { #expect(try await client.ask("ADD_USER Ada Lovelace ada\(n) Secret-Pass1").hasPrefix("Ask a librarian")) }
            let sixth = try await client.ask("ADD_USER Ada Lovelace ada5 Secret-Pass1")
            #expect(sixth.hasPrefix("too many login and signup attempts from your address; try again in "), "\(sixth)")
            // The address's logins wait with it.
            #expect(try await client.ask("LOGIN ada Member-Pass1") == "Failed login")
        }
    }

    @Test func addUserSaysTakenInvalidOrAsksForALibrarian() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.member("ada")
            let client = try bitbooks.connect()
            #expect(try await client.ask("ADD_USER Ada Lovelace ada Secret-Pass1") == "Username already exists")
            #expect(try await client.ask("ADD_USER Ada Lovelace ADA Secret-Pass1") == "Username already exists")
            // The accounts model's own reasons, word for word and nothing after them.
            let invalid = try await client.ask("ADD_USER Bo Bo 1bo Secret-Pass1")
            let reason = try await bitbooks.library.accounts.usernames.availability("1bo", client: nil)
            #expect(reason == .invalid(FieldError("username", .notAUsername)), "\(reason)")
            #expect(invalid == Wording.english.text(FieldError("username", .notAUsername)) && invalid.hasPrefix("username: "), "\(invalid)")
            let weak = try await client.ask("ADD_USER Grace Hopper grace short")
            let policy = try #require(PasswordPolicy.problems("short").first)
            #expect(weak == Wording.english.text(policy) && weak.hasPrefix("password: "), "\(weak)")
            #expect(
                try await client.ask("ADD_USER Grace Hopper grace Secret-Pass1")
                    == "Ask a librarian to register you (an account needs an email address); then log in here with your username")
        }
    }

    @Test func getBooksAndGetBookAnswerTheCatalogue() async throws {
        try await withBitBooks { bitbooks in
            let client = try bitbooks.connect()
            #expect(try await client.ask("GET_BOOKS") == "[]")
            try await bitbooks.book(
                "Dune", isbn: "978-0-441-17271-9", copies: 2, categories: ["Science fiction", "Classics"],
                cover: "https://covers.example/dune.jpg")
            try await bitbooks.book("Emma", isbn: "9780141439587", categories: [])
            let books = try objects(try await client.ask("GET_BOOKS"))
            #expect(books.count == 2)
            let dune = try #require(books.first)
            #expect(dune["title"] as? String == "Dune")
            #expect(dune["ISBN"] as? String == "9780441172719")
            #expect(dune["author"] as? String == "Ann Author, Bo Writer")
            #expect(dune["genre"] as? String == "Science fiction")
            #expect(dune["copies"] as? Int == 2 && dune["given_copies"] as? Int == 0)
            #expect(dune["cover"] as? String == "https://covers.example/dune.jpg")
            #expect(books.last?["genre"] as? String == "" && books.last?["cover"] as? String == "")

            // Any spelling of the ISBN, ISBN-10 included.
            let one = try object(try await client.ask("GET_BOOK 0441172717"))
            #expect(one["title"] as? String == "Dune")
            #expect(try await client.ask("GET_BOOK 9780000000002") == "No book with ISBN 9780000000002")
            #expect(try await client.ask("GET_BOOK not-an-isbn") == "No book with ISBN not-an-isbn")
        }
    }

    @Test func loanGetLoansAndTheLoanIsARealOne() async throws {
        try await withBitBooks { bitbooks in
            let dune = try await bitbooks.book("Dune", isbn: "9780441172719", copies: 2, cover: "https://covers.example/dune.jpg")
            let member = try await bitbooks.member("ada")
            let client = try await bitbooks.loggedIn("ada")
            #expect(try await client.ask("GET_LOANS ada") == "[]")
            #expect(try await client.ask("LOAN ada 9780441172719") == "Loan confirmed")
            let loans = try objects(try await client.ask("GET_LOANS ada"))
            #expect(loans.count == 1)
            let loan = try #require(loans.first)
            #expect(loan["username"] as? String == "ada" && loan["isbn"] as? String == "9780441172719")
            #expect(loan["title"] as? String == "Dune" && loan["cover"] as? String == "https://covers.example/dune.jpg")
            // The test clock starts on 21 September 2026; loans last 14 days by default.
            #expect(loan["loan_date"] as? String == "21-09-2026")
            #expect(loan["return_date"] as? String == "05-10-2026")
            let book = try await bitbooks.library.catalogue.showBook.execute(dune.id)
            #expect(book.onLoan == 1)
            let active = try await bitbooks.library.circulation.list.active(member: member, by: .cliOperator)
            #expect(active.items.map(\.book) == [dune.id])
        }
    }

    @Test func commandsThatNeedALoginSaySo() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.book("Dune", isbn: "9780441172719")
            try await bitbooks.member("ada")
            try await bitbooks.member("bob")
            let client = try bitbooks.connect()
            #expect(try await client.ask("LOAN ada 9780441172719") == "Log in first: LOGIN USERNAME PASSWORD")
            #expect(try await client.ask("GET_LOANS ada") == "Log in first: LOGIN USERNAME PASSWORD")
            #expect(try await client.ask("CHECK_NOTIFICATIONS ada") == "[]")
            #expect(try await client.ask("LOGIN ada Member-Pass1") == "Successfully logged")
            #expect(try await client.ask("LOAN bob 9780441172719") == "You are not logged in as bob")
            #expect(try await client.ask("GET_LOANS bob") == "You are not logged in as bob")
            #expect(try await client.ask("LOAN ADA 9780441172719") == "Loan confirmed")
        }
    }

    @Test func theLoanLimitAndTheCopiesInTheProtocolsWords() async throws {
        try await withBitBooks { bitbooks in
            var isbns: [String] = []
            for (index, isbn) in ["9780441172719", "9780141439587", "9780140449136", "9780553293357", "9780345391803", "9780062316097"]
                .enumerated()
            {
                try await bitbooks.book("Book \(index)", isbn: isbn)
                isbns.append(isbn)
            }
            try await bitbooks.member("ada")
            try await bitbooks.member("bob")
            let ada = try await bitbooks.loggedIn("ada")
            #expect(try await ada.ask("LOAN ada \(isbns.joined(separator: " "))") == "Request less than 5 books")
            #expect(try await ada.ask("LOAN ada \(isbns[0]) \(isbns[1]) \(isbns[2])") == "Loan confirmed")
            #expect(
                try await ada.ask("LOAN ada \(isbns[3]) \(isbns[4]) \(isbns[5])")
                    == "You have already made 3 loans, you can only apply for 2 more")
            #expect(try await ada.ask("LOAN ada \(isbns[3]) \(isbns[4])") == "Loan confirmed")
            #expect(try await ada.ask("LOAN ada \(isbns[5])") == "You have already made 5 loans")

            // All or nothing: the one copy of Book 0 is out, so Book 5 is not lent either.
            let bob = try await bitbooks.loggedIn("bob")
            #expect(try await bob.ask("LOAN bob \(isbns[5]) \(isbns[0])") == "No more copies available for the book: Book 0")
            #expect(try await bob.ask("GET_LOANS bob") == "[]")
            #expect(try await bob.ask("LOAN bob \(isbns[5]) 9780000000002") == "No more copies available for the book: Unknown book")
            #expect(try await bob.ask("GET_LOANS bob") == "[]")
            let book5 = try object(try await bob.ask("GET_BOOK \(isbns[5])"))
            #expect(book5["given_copies"] as? Int == 0)
        }
    }

    @Test func notificationsAreTheLoggedInMembersOwnAndReadOnce() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.book("Dune", isbn: "9780441172719", copies: 2)
            try await bitbooks.member("ada")
            try await bitbooks.member("bob")
            let ada = try await bitbooks.loggedIn("ada")
            #expect(try await ada.ask("LOAN ada 9780441172719") == "Loan confirmed")
            #expect(try await ada.ask("CHECK_NOTIFICATIONS ada") == "[]")
            // Two days before the due date, the scanner issues the due-soon notice.
            bitbooks.clock.advance(by: 12 * 24 * 3600)
            try await bitbooks.library.circulation.scan.execute(by: .system)

            // Another connection, logged in as someone else, never sees ada's notices, nor marks them read.
            let bob = try await bitbooks.loggedIn("bob")
            #expect(try await bob.ask("CHECK_NOTIFICATIONS ada") == "You are not logged in as ada")
            #expect(try await bob.ask("CHECK_NOTIFICATIONS bob") == "[]")

            let notices = try objects(try await ada.ask("CHECK_NOTIFICATIONS ada"))
            #expect(notices.count == 1)
            #expect(notices.first?["username"] as? String == "ada" && notices.first?["isbn"] as? String == "9780441172719")
            #expect(notices.first?["message"] as? String == "Dune is due back on 05-10-2026")
            #expect(notices.first?["notified"] as? Bool == false)
            #expect(try await ada.ask("CHECK_NOTIFICATIONS ada") == "[]")

            bitbooks.clock.advance(by: 3 * 24 * 3600)
            try await bitbooks.library.circulation.scan.execute(by: .system)
            let overdue = try objects(try await ada.ask("CHECK_NOTIFICATIONS ada"))
            #expect(overdue.first?["message"] as? String == "Dune was due back on 05-10-2026: it is overdue")
        }
    }

    @Test func anythingElseIsAnUnknownCommandOrItsUsage() async throws {
        try await withBitBooks { bitbooks in
            let client = try bitbooks.connect()
            #expect(try await client.ask("HELLO") == "Unknown command")
            #expect(try await client.ask("get_books") == "Unknown command")
            #expect(try await client.ask("LOGIN ada") == "Wrong arguments: LOGIN USERNAME PASSWORD")
            #expect(try await client.ask("GET_BOOKS please") == "Wrong arguments: GET_BOOKS")
            #expect(try await client.ask("LOAN ada") == "Wrong arguments: LOAN USERNAME ISBN [ISBN...]")
            #expect(try await client.ask("ADD_USER a b c") == "Wrong arguments: ADD_USER NAME SURNAME USERNAME PASSWORD")
            #expect(try await client.ask("GET_BOOKS") == "[]")
        }
    }
}
