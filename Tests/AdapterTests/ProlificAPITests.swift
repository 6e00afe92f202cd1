import Application
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The Prolific apps' REST API, driven through the real composition on SQLite: every route, both
/// body encodings, trailing slashes, the PUT rules and the answers' shapes.
@Suite("Prolific API: routes, bodies and the book's shape")
struct ProlificAPITests {
    static let dune = #"{"author":"Frank Herbert, Brian Herbert","categories":"SF,Classics","title":"Dune\/Messiah","publisher":"Chilton"}"#

    @Test func aBookIsAddedShownAndListedInTheAppsShapeWithOrWithoutASlash() async throws {
        try await withProlific { app in
            for path in ["books", "books/"] {
                let empty = try await app.send(.get, path)
                #expect(empty.status == .ok && empty.text == "[]")
            }
            let added = try await app.json(.post, "books", Self.dune)
            #expect(added.status == .created, "\(added.text)")
            #expect(added.headers[.location] == "/\(app.key)/books/1/")
            #expect(added.headers[.contentType]?.hasPrefix("application/json") == true)
            let book = try added.object
            #expect(book["id"] as? Int == 1)
            #expect(book["url"] as? String == "/books/1/")
            #expect(book["title"] as? String == "Dune/Messiah")
            #expect(book["author"] as? String == "Frank Herbert, Brian Herbert")
            #expect(book["categories"] as? String == "SF, Classics")
            #expect(book["publisher"] as? String == "Chilton")
            #expect(book["lastCheckedOut"] is NSNull && book["lastCheckedOutBy"] is NSNull)
            #expect(added.text.contains(#""url":"\/books\/1\/""#), "slashes escaped as the original service wrote them")
            for path in ["books/1", "books/1/"] {
                let shown = try await app.send(.get, path)
                #expect(shown.status == .ok && shown.text == added.text)
            }
            let listed = try await app.send(.get, "books/")
            #expect(try listed.array.count == 1 && listed.array[0]["title"] as? String == "Dune/Messiah")
        }
    }

    @Test func theObjectiveCAppsFormsWorkAsJSONDoes() async throws {
        try await withProlific { app in
            let added = try await app.form(.post, "books/", "title=Le+Petit+Prince&author=Antoine+de+Saint-Exup%C3%A9ry&categories=")
            #expect(added.status == .created, "\(added.text)")
            #expect(try added.object["author"] as? String == "Antoine de Saint-Exupéry")
            #expect(try added.object["categories"] as? String == "")
            let changed = try await app.form(.put, "books/1/", "publisher=Gallimard&lastCheckedOutBy=")
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try changed.object["publisher"] as? String == "Gallimard")
            #expect(try changed.object["title"] as? String == "Le Petit Prince")
            #expect(try changed.object["lastCheckedOutBy"] is NSNull)
        }
    }

    @Test func aCheckoutPutLendsAtTheDeskAndAnEditPutKeepsTheLastCheckout() async throws {
        try await withProlific { app in
            _ = try await app.json(.post, "books", Self.dune)
            var whole = try await app.send(.get, "books/1").object
            whole["lastCheckedOutBy"] = "Mrs Hudson"
            whole["lastCheckedOut"] = nil
            let checkout = try await app.json(
                .put, "books/1", String(decoding: try JSONSerialization.data(withJSONObject: whole), as: UTF8.self))
            #expect(checkout.status == .ok, "\(checkout.text)")
            let lent = try checkout.object
            #expect(lent["lastCheckedOutBy"] as? String == "Mrs Hudson")
            let when = try #require(lent["lastCheckedOut"] as? String)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            #expect(when == formatter.string(from: app.clock.now()))
            let loans = try await app.library.circulation.list.active(walkIn: "Mrs Hudson", by: .cliOperator)
            #expect(loans.items.count == 1 && loans.items[0].borrower == nil)

            // An edit: lastCheckedOutBy null and no lastCheckedOut: the checkout stays.
            let edit = try await app.json(.put, "books/1/", #"{"title":"Dune","lastCheckedOutBy":null}"#)
            #expect(edit.status == .ok, "\(edit.text)")
            #expect(try edit.object["title"] as? String == "Dune")
            #expect(try edit.object["lastCheckedOutBy"] as? String == "Mrs Hudson")
            #expect(try edit.object["lastCheckedOut"] as? String == when)
            #expect(try edit.object["author"] as? String == "Frank Herbert, Brian Herbert", "fields not sent are kept")

            // The app echoing the book it read (with the checkout's time) lends nothing again.
            let echo = try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Mrs Hudson","lastCheckedOut":"\#(when)"}"#)
            #expect(echo.status == .ok, "\(echo.text)")
            let zoned = try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Mrs Hudson","lastCheckedOut":"\#(when) UTC"}"#)
            #expect(zoned.status == .ok, "a time with a zone reads too: \(zoned.text)")
            #expect(try await app.library.circulation.list.active(walkIn: "Mrs Hudson", by: .cliOperator).items.count == 1)

            // A second checkout of the only copy is refused by circulation: a 4xx with its words.
            let again = try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Dr Watson"}"#)
            #expect(again.status == .conflict, "\(again.text)")
            #expect(again.error?.contains("on loan") == true, "\(again.text)")
            // Found by an outside test: a checkout sent "along with the timestamp" (the app's own
            // clock) was dropped with a 200. It is a checkout; the server sets the time.
            let stamped = try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Dr Watson","lastCheckedOut":"2020-01-01 09:00:00"}"#)
            #expect(stamped.status == .conflict, "\(stamped.text)")
            _ = try await app.json(.post, "books", Self.dune)
            let lentWithTime = try await app.json(
                .put, "books/2", #"{"lastCheckedOutBy":"Dr Watson","lastCheckedOut":"2020-01-01 09:00:00"}"#)
            #expect(lentWithTime.status == .ok, "\(lentWithTime.text)")
            #expect(try lentWithTime.object["lastCheckedOutBy"] as? String == "Dr Watson")
            #expect(try lentWithTime.object["lastCheckedOut"] as? String == when, "the server's time, not the app's")
            #expect(try await app.library.circulation.list.active(walkIn: "Dr Watson", by: .cliOperator).items.count == 1)
        }
    }

    @Test func refusedChangesAre4xxWithAnErrorNeverA5xx() async throws {
        try await withProlific { app in
            let noTitle = try await app.json(.post, "books", #"{"author":"Anon"}"#)
            #expect(noTitle.status == .badRequest && noTitle.error?.contains("title") == true, "\(noTitle.text)")
            let noAuthor = try await app.form(.post, "books", "title=Alone")
            #expect(noAuthor.status == .badRequest && noAuthor.error != nil, "\(noAuthor.text)")
            let wrongType = try await app.json(.post, "books", #"{"title":42,"author":["A"]}"#)
            #expect(wrongType.status == .badRequest && wrongType.error?.contains("title") == true, "\(wrongType.text)")
            let control = try await app.json(.post, "books", #"{"title":"Bad\u0000title","author":"A"}"#)
            #expect(control.status == .badRequest, "\(control.text)")
            let badTime = try await app.json(.post, "books", #"{"title":"T","author":"A","lastCheckedOut":"yesterday"}"#)
            #expect(badTime.status == .badRequest && badTime.error?.contains("lastCheckedOut") == true, "\(badTime.text)")

            _ = try await app.json(.post, "books", Self.dune)
            _ = try await app.json(.post, "books", #"{"title":"Emma","author":"Jane Austen"}"#)
            let emptied = try await app.json(.put, "books/1", #"{"title":""}"#)
            #expect(emptied.status == .badRequest, "\(emptied.text)")
            _ = try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Mrs Hudson"}"#)
            let onLoan = try await app.send(.delete, "books/1")
            #expect(onLoan.status == .conflict && onLoan.error?.contains("on loan") == true, "\(onLoan.text)")
            let cleaned = try await app.send(.delete, "clean/")
            #expect(cleaned.status == .conflict && cleaned.error?.contains("Dune") == true, "\(cleaned.text)")
            #expect(try cleaned.object["deleted"] as? Int == 1)
            let list = try await app.send(.get, "books")
            #expect(try list.array.map { $0["id"] as? Int } == [1])
        }
    }

    @Test func walkInCheckoutsKeepTheDesksRules() async throws {
        try await withProlific { app in
            for title in ["A", "B", "C", "D", "E", "F"] { _ = try await app.json(.post, "books", #"{"title":"\#(title)","author":"X"}"#) }
            let long = try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"\#(String(repeating: "n", count: 101))"}"#)
            #expect(long.status == .badRequest && long.error?.hasPrefix("lastCheckedOutBy") == true, "\(long.text)")
            let limit = try await app.library.circulation.list.active(by: .cliOperator).total
            #expect(limit == 0)
            var statuses: [HTTPResponse.Status] = []
            for n in 1...6 { statuses.append(try await app.json(.put, "books/\(n)", #"{"lastCheckedOutBy":"Mrs Hudson"}"#).status) }
            let refused = try await app.json(.put, "books/6", #"{"lastCheckedOutBy":"mrs  hudson"}"#)
            #expect(statuses == Array(repeating: .ok, count: 5) + [.conflict], "the walk-in limit (5) holds: \(statuses)")
            #expect(refused.status == .conflict && refused.error?.contains("walk-in") == true, "\(refused.text)")
        }
    }

    @Test func concurrentCheckoutsOfTheLastCopyHaveOneWinner() async throws {
        try await withProlific { app in
            _ = try await app.json(.post, "books", #"{"title":"Last copy","author":"X"}"#)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 1...6 { group.addTask { try await app.json(.put, "books/1", #"{"lastCheckedOutBy":"Reader \#(n)"}"#).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1 && statuses.filter { $0 == .conflict }.count == 5, "\(statuses)")
            #expect(try await app.library.circulation.list.active(by: .cliOperator).total == 1)
        }
    }

    @Test func deletingOneOrAllAnswersAsTheAppsExpect() async throws {
        try await withProlific { app in
            _ = try await app.json(.post, "books", Self.dune)
            _ = try await app.json(.post, "books", #"{"title":"Emma","author":"Jane Austen"}"#)
            let one = try await app.send(.delete, "books/2/")
            #expect(one.status == .noContent)
            #expect(try await app.send(.get, "books/2").status == .notFound)
            #expect(try await app.send(.delete, "books/2").status == .notFound)
            let clean = try await app.send(.delete, "clean")
            let deleted = try clean.object["deleted"] as? Int
            #expect(clean.status == .ok && deleted == 1, "\(clean.text)")
            #expect(try await app.send(.get, "books").text == "[]")
        }
    }

    @Test func numbersStayWithTheirBooksAfterDeletesAndARebuild() async throws {
        try await withProlific { app in
            for title in ["One", "Two", "Three"] { _ = try await app.json(.post, "books", #"{"title":"\#(title)","author":"A"}"#) }
            _ = try await app.send(.delete, "books/2")
            let four = try await app.json(.post, "books", #"{"title":"Four","author":"A"}"#)
            #expect(try four.object["id"] as? Int == 4, "a number is never given twice")
            let before = try await app.send(.get, "books").text
            #expect(try await app.send(.get, "books").array.map { $0["id"] as? Int } == [1, 3, 4])
            _ = try await app.library.readModels.rebuild { _, _ in }
            #expect(try await app.send(.get, "books").text == before)
            #expect(try await app.send(.get, "books/3").object["title"] as? String == "Three")
            let five = try await app.json(.post, "books", #"{"title":"Five","author":"A"}"#)
            #expect(try five.object["id"] as? Int == 5)
        }
    }
}
