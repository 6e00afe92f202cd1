import Application
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A PUT that edits and checks out at once is all or nothing, a retried checkout lends no second
/// copy, and a book not found is named by its number.
@Suite("Prolific API: PUT all or nothing, retries, numbers in not-found")
struct ProlificPutTests {
    /// Adds books titled `titles` (numbers 1, 2, ...), the first with `copies` copies.
    static func add(_ app: ProlificFixture, _ titles: [String], copies: Int = 1) async throws {
        for title in titles { _ = try await app.json(.post, "books", #"{"title":"\#(title)","author":"A. Author"}"#) }
        guard copies != 1 else { return }
        let first = try await app.library.numbers.book(numbered: 1)
        _ = try await app.library.catalogue.editBook.execute(first, changes: BookChanges(), copies: copies, by: .cliOperator)
    }

    func active(_ app: ProlificFixture) async throws -> [LoanSummary] {
        try await app.library.circulation.list.active(by: .cliOperator).items
    }

    @Test func aRefusedCheckoutLeavesTheEditUndone() async throws {
        try await withProlific { app in
            try await Self.add(app, ["Only copy"])
            #expect(try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Holmes"}"#).status == .ok)
            let both = try await app.json(.put, "books/1", #"{"title":"Renamed","lastCheckedOutBy":"Watson"}"#)
            #expect(both.status == .conflict, "\(both.text)")
            let book = try await app.send(.get, "books/1").object
            #expect(book["title"] as? String == "Only copy", "the title change was saved though the checkout was refused")
            #expect(book["lastCheckedOutBy"] as? String == "Holmes")
        }
    }

    @Test func aRefusedEditLeavesNoLoanBehind() async throws {
        try await withProlific { app in
            try await Self.add(app, ["Free"])
            for body in [#"{"title":null,"lastCheckedOutBy":"Watson"}"#, #"{"author":"","lastCheckedOutBy":"Watson"}"#] {
                let refused = try await app.json(.put, "books/1", body)
                #expect(refused.status == .badRequest, "\(body): \(refused.text)")
            }
            let formRefused = try await app.form(.put, "books/1", "title=&lastCheckedOutBy=Watson")
            #expect(formRefused.status == .badRequest, "\(formRefused.text)")
            #expect(try await active(app).isEmpty, "a refused edit lent the book anyway")
            let book = try await app.send(.get, "books/1").object
            #expect(book["lastCheckedOutBy"] is NSNull && book["title"] as? String == "Free")
            let both = try await app.json(.put, "books/1", #"{"title":"Renamed","lastCheckedOutBy":"Watson"}"#)
            #expect(both.status == .ok, "\(both.text)")
            #expect(try both.object["title"] as? String == "Renamed" && both.object["lastCheckedOutBy"] as? String == "Watson")
        }
    }

    /// The Objective-C app writes nil as "(null)" and NSNull as "<null>" in its forms: an edit from
    /// it must not lend the book to a walk-in of that name, nor blank a field it did not mean to set.
    @Test func theObjectiveCAppsNilSpellingsReadAsNull() async throws {
        try await withProlific { app in
            try await Self.add(app, ["Dune"])
            for nilSpelling in ["(null)", "%28null%29", "%3Cnull%3E"] {
                let edit = try await app.form(
                    .put, "books/1", "title=Dune+Messiah&author=Frank+Herbert&lastCheckedOutBy=\(nilSpelling)&publisher=\(nilSpelling)")
                #expect(edit.status == .ok, "\(edit.text)")
                let book = try edit.object
                #expect(book["lastCheckedOutBy"] is NSNull && book["publisher"] is NSNull, "\(book)")
            }
            #expect(try await active(app).isEmpty, "an edit from the Objective-C app lent the book to \"(null)\"")
            #expect(try await app.send(.get, "books/1").object["title"] as? String == "Dune Messiah")
        }
    }

    @Test func aRetriedCheckoutLendsNoSecondCopy() async throws {
        try await withProlific { app in
            try await Self.add(app, ["Two copies", "One copy"], copies: 2)
            for (path, name) in [
                ("books/1", "Holmes"), ("books/1", "Holmes"), ("books/1", "  HOLMES "), ("books/2", "Holmes"), ("books/2", "holmes"),
            ] {
                let put = try await app.json(.put, path, #"{"lastCheckedOutBy":"\#(name)"}"#)
                #expect(put.status == .ok, "\(path) \(name): \(put.text)")
                #expect(try put.object["lastCheckedOutBy"] as? String == "Holmes", "the open loan's name: \(put.text)")
            }
            #expect(try await active(app).count == 2, "one loan per book, however often the app retries")
            // Another name is a new checkout; then Holmes is no longer the book's last checkout.
            #expect(try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Watson"}"#).status == .ok)
            #expect(try await app.json(.put, "books/2", #"{"lastCheckedOutBy":"Watson"}"#).status == .conflict)
            #expect(try await active(app).count == 3)
            // A returned loan is not repeated: the name borrows again.
            let holmes = try #require(try await active(app).first { $0.borrowerName == "Holmes" && $0.bookTitle == "One copy" })
            let librarian = try await app.library.appKeys.authenticate.execute(key: app.key)
            _ = try await app.library.circulation.giveBack.execute(holmes.id, by: librarian)
            #expect(try await app.json(.put, "books/2", #"{"lastCheckedOutBy":"Holmes"}"#).status == .ok)
            #expect(try await active(app).count == 3)
        }
    }

    @Test func concurrentRetriesOfOneCheckoutMakeOneLoan() async throws {
        try await withProlific { app in
            try await Self.add(app, ["Plenty"], copies: 5)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 1...4 { group.addTask { try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Holmes"}"#).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: .ok, count: 4), "\(statuses)")
            let loans = try await active(app)
            #expect(loans.count == 1, "\(loans)")
        }
    }

    @Test func aBookNotFoundIsNamedByItsNumberNeverByItsID() async throws {
        try await withProlific { app in
            try await Self.add(app, ["Gone", "Kept"])
            #expect(try await app.send(.delete, "books/1").status == .noContent)
            let requests: [(HTTPRequest.Method, String, String?)] = [
                (.get, "books/1", nil), (.get, "books/1/", nil), (.put, "books/1", #"{"title":"Back"}"#),
                (.put, "books/1", #"{"lastCheckedOutBy":"Holmes"}"#), (.put, "books/1", #"{"title":"T","lastCheckedOutBy":"Holmes"}"#),
                (.delete, "books/1", nil),
            ]
            for (method, path, body) in requests {
                let response = try await app.send(method, path, body: body, contentType: body.map { _ in "application/json" })
                #expect(
                    response.status == .notFound && response.error == "there is no book number 1", "\(method) \(path): \(response.text)")
            }
            for method in [HTTPRequest.Method.get, .put, .delete] {
                let never = try await app.send(method, "books/7", body: method == .put ? "{}" : nil, contentType: "application/json")
                #expect(never.status == .notFound && never.error == "there is no book number 7", "\(method): \(never.text)")
            }
            let notANumber = try await app.send(.get, "books/abc")
            #expect(notANumber.status == .notFound && notANumber.error?.contains("books/7") == true, "\(notANumber.text)")
        }
    }
}
