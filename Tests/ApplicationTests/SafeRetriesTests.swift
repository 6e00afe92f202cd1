import Application
import Composition
import Domain
import Foundation
import InMemory
import Testing

/// Safe retries where HTTP cannot reach: two processes serving one library file, the second
/// retrying a request while the first runs it.
@Suite("Safe retries across processes")
struct SafeRetriesTests {
    static let request = RetryableRequest(key: "k-1", method: "POST", route: "/api/v1/books", body: Array(#"{"title":"Dune"}"#.utf8))

    /// Process B looks the key up (nothing yet), process A then runs the same request to its end,
    /// and B's append meets A's receipt: B records nothing and answers A's answer.
    @Test func aRaceBetweenTwoProcessesRecordsOnceAndAnswersTheFirst() async throws {
        let folder = TemporaryFolder()
        var configuration = ShelfmarkConfiguration(databasePath: folder.databasePath)
        configuration.durability = .off
        let clock = ManualClock()
        let (a, databaseA) = try Bootstrap.openLibrary(configuration, clock: clock, ids: RandomIDs())
        let (b, databaseB) = try Bootstrap.openLibrary(configuration, clock: clock, ids: RandomIDs())
        defer {
            try? databaseA.close()
            try? databaseB.close()
        }
        let draft = BookDraft(title: "Dune", authors: ["Frank Herbert"])
        let answer = try await b.retries.execute(Self.request, by: .cliOperator) {
            let first = try await a.retries.execute(Self.request, by: .cliOperator) {
                let book = try await a.catalogue.addBook.execute(draft, copies: 1, by: .cliOperator)
                return RequestAnswer(status: 201, headers: [["Location", "/api/v1/books/\(book.id)"]], body: Data("first".utf8))
            }
            #expect(first.body == Data("first".utf8))
            _ = try await b.catalogue.addBook.execute(draft, copies: 1, by: .cliOperator)
            Issue.record("the second process's append went through")
            return RequestAnswer(status: 201, headers: [], body: Data("second".utf8))
        }
        #expect(answer.body == Data("first".utf8))
        #expect(try await a.catalogue.listBooks.execute(CatalogueQuery(), by: .cliOperator).total == 1)
        // And a retry now, in either process, is answered from the receipt without running.
        for library in [a, b] {
            let again = try await library.retries.execute(Self.request, by: .cliOperator) {
                Issue.record("a retry ran")
                return RequestAnswer(status: 500, headers: [], body: Data())
            }
            #expect(again == answer)
        }
    }

    /// A key is the caller's: the operator's key is not a member's, and a refusal keeps nothing.
    @Test func aRefusalKeepsNothingSoTheKeyServesAgain() async throws {
        let t = try TestLibrary()
        await #expect(throws: RetryRefused(.badKey)) {
            try await t.library.retries.execute(RetryableRequest(key: "", method: "POST", route: "/", body: []), by: .cliOperator) {
                RequestAnswer(status: 201, headers: [], body: Data())
            }
        }
        await #expect(throws: NotFound.self) {
            try await t.library.retries.execute(Self.request, by: .cliOperator) { throw NotFound(.book, "x") }
        }
        let answer = try await t.library.retries.execute(Self.request, by: .cliOperator) {
            RequestAnswer(status: 201, headers: [], body: Data("made".utf8))
        }
        #expect(answer.body == Data("made".utf8))
        let other = RetryableRequest(key: "k-1", method: "POST", route: "/api/v1/books", body: Array("{}".utf8))
        await #expect(throws: RetryRefused(.keyReused)) {
            try await t.library.retries.execute(other, by: .cliOperator) { RequestAnswer(status: 201, headers: [], body: Data()) }
        }
    }
}
