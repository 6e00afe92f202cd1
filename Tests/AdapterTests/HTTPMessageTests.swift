import APIContract
import Application
import Domain
import Foundation
import HummingbirdTesting
import InMemory
import Testing
import Wording

/// Refusals over HTTP read as sentences from the message catalogue: books by title, not by id,
/// and no type names.
@Suite("HTTP API: what refusals say")
struct HTTPMessageTests {
    func addBook(_ api: APIClient, _ title: String, isbn: String? = nil) async throws -> String {
        let isbn = isbn.map { #","isbn":"\#($0)""# } ?? ""
        let added = try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(title)","authors":["A"],"copies":1\#(isbn)}"#)
        return try #require(try added.object["id"] as? String, "\(added.text)")
    }

    func detail(_ response: TestResponse) throws -> String { try response.object["detail"] as? String ?? "" }

    @Test func withdrawingABookOnLoanNamesItByTitle() async throws {
        try await withAPI { api in
            let hobbit = try await addBook(api, "The Hobbit")
            _ = try await api.send(.post, "/api/v1/books/\(hobbit)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#)
            let refused = try await api.send(.delete, "/api/v1/books/\(hobbit)")
            #expect(refused.status == .conflict)
            #expect(try detail(refused) == "“The Hobbit” has 1 copy on loan, so it cannot be withdrawn until it is returned")
            #expect(!refused.text.contains(hobbit))
        }
    }

    @Test func noCopyLeftNamesTheBookByTitle() async throws {
        try await withAPI { api in
            let dune = try await addBook(api, "Dune")
            _ = try await api.send(.post, "/api/v1/books/\(dune)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#)
            let ada = try await api.signUpMember("ada@example.org")
            let refused = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada)
            #expect(refused.status == .conflict)
            #expect(try detail(refused) == "no copy of “Dune” is available: the only copy is on loan")
        }
    }

    @Test func theOverdueBlockListsTitlesAndDueDates() async throws {
        let clock = ManualClock()
        try await withAPI(clock: clock) { api in
            let dune = try await addBook(api, "Dune")
            let ada = try await api.signUpMember("ada@example.org")
            let lent = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada)
            let loan = try #require((try lent.object["loans"] as? [[String: Any]])?.first)
            let due = try #require((loan["dueAt"] as? String)?.prefix(10))
            clock.advance(by: 15 * 24 * 3600)
            let other = try await addBook(api, "Emma")
            let blocked = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(other)"]}"#, token: ada)
            #expect(blocked.status == .conflict)
            // The sentence writes the day for people (the loan's dueAt stays ISO 8601).
            let day = Formats(.english).day(try Date.ISO8601FormatStyle().year().month().day().parse(String(due)))
            #expect(try detail(blocked) == "please return your overdue book first: “Dune” (due \(day))")
            #expect(!blocked.text.contains(try #require(loan["id"] as? String)))
        }
    }

    @Test func anISBNThatIsNotOneIsSaidInASentence() async throws {
        try await withAPI { api in
            let refused = try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"],"isbn":"hello"}"#)
            #expect(refused.status == .badRequest)
            let errors = try #require(try refused.object["errors"] as? [[String: Any]])
            let message = try #require(errors.first?["message"] as? String)
            #expect(errors.first?["field"] as? String == "isbn")
            #expect(message.hasPrefix("'hello' is not an ISBN: an ISBN has 10 or 13 digits"), "\(message)")
            #expect(try detail(refused).hasPrefix("isbn: 'hello' is not an ISBN"))
        }
    }

    @Test func notFoundAndForbiddenReadAsSentences() async throws {
        try await withAPI { api in
            let ghost = "7d2c1a0e-0000-4000-8000-000000000000"
            let missing = try await api.send(.get, "/api/v1/books/\(ghost)")
            #expect(missing.status == .notFound)
            #expect(try detail(missing) == "there is no book with id '\(ghost)'")
            let member = try await api.signUpMember("ada@example.org")
            let forbidden = try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#, token: member)
            #expect(forbidden.status == .forbidden)
            #expect(try detail(forbidden) == "only a librarian may do this")
        }
    }

    /// Found by an outside test: a hold refused for an overdue book was answered "Loan refused".
    @Test func aPatronsRefusalOfAHoldIsAHoldRefused() throws {
        let overdue = LoanRefused(PatronRejection.blockedByOverdue(loans: []))
        #expect(Problem.of(overdue)?.type == "urn:shelfmark:problem:loan-refused")
        #expect(Problem.of(overdue.ofAHold())?.type == "urn:shelfmark:problem:hold-refused")
        #expect(Problem.of(overdue.ofAHold())?.title == "Hold refused")
    }

    /// Found by an outside walk: a loan or a catalogue edit meeting copies kept for waiting members
    /// was answered "Hold refused", though the caller placed no hold.
    @Test func copiesKeptForOthersRefuseALoanOrAnEditNotAHold() throws {
        let book = BookID(UUID())
        #expect(
            Problem.of(LoanRefused(HoldRejection.setAsideForOthers(book: book, count: 1)))?.type == "urn:shelfmark:problem:loan-refused")
        #expect(Problem.of(LoanRefused(HoldRejection.copiesSetAside(book: book, count: 1)))?.type == "urn:shelfmark:problem:conflict")
        #expect(Problem.of(LoanRefused(HoldRejection.copyOnShelf(book: book, available: 1)))?.type == "urn:shelfmark:problem:hold-refused")
    }

    @Test func upstreamTroubleIsA503WithoutItsTechnicalCause() throws {
        let cause = "DNS error: SocketAddressError.UnknownHost"
        for error in [SearchUnavailable(.unreachable, detail: cause), CountryListUnavailable(detail: cause)] as [any Error] {
            let problem = try #require(Problem.of(error))
            #expect(problem.status == 503, "\(error)")
            #expect(
                problem.detail?.contains("cannot be reached just now") == true && problem.detail?.contains("DNS") == false, "\(problem)")
        }
    }
}
