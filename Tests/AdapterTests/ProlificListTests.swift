import Application
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `GET /{key}/books` on a long catalogue: every book once, by number, from two reads (the
/// numbers and the catalogue) rather than one per book. The time is printed, never asserted.
@Suite("Prolific API: the whole list")
struct ProlificListTests {
    @Test func twoThousandBooksAreListedByNumberInOnePass() async throws {
        try await withProlific { app in
            for n in 1...2_000 {
                _ = try await app.library.catalogue.addBook.execute(
                    BookDraft(title: "Book \(n)", authors: ["A"]), copies: 1, by: .cliOperator)
            }
            _ = try await app.send(.delete, "books/2")
            let started = ContinuousClock.now
            let list = try await app.send(.get, "books")
            print("GET /{key}/books with 1,999 books: \(ContinuousClock.now - started)")
            let books = try list.array
            #expect(books.map { $0["id"] as? Int } == [1] + Array(3...2_000), "every book once, in number order, none withdrawn")
            #expect(books.allSatisfy { $0["title"] as? String == "Book \($0["id"] as? Int ?? 0)" }, "each book under its own number")
        }
    }
}
