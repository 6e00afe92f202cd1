import Composition
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

/// Holds over HTTP: each route for an anonymous caller, the member, another member and a
/// librarian; the 409 names the rule; a return sets the copy aside with a notice.
@Suite("HTTP API: holds")
struct HTTPHoldTests {
    func addBook(_ api: APIClient, _ title: String) async throws -> String {
        try #require(
            try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(title)","authors":["A"],"copies":1}"#).object["id"] as? String)
    }

    @Test func eachRouteForAnonymousTheMemberAnotherMemberAndALibrarian() async throws {
        try await withAPI { api in
            let dune = try await addBook(api, "Dune")
            let (ada, bob, cy) = (
                try await api.signUpMember("ada@example.org"), try await api.signUpMember("bob@example.org"),
                try await api.signUpMember("cy@example.org")
            )
            let loan = try #require(
                ((try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada).object["loans"])
                    as? [[String: Any]])?
                    .first?["id"] as? String)
            let body = #"{"bookId":"\#(dune)"}"#

            // Placing: anonymous 401; a member 201 with the place in line and where to read it.
            #expect(try await api.send(.post, "/api/v1/holds", json: body, token: .none).status == .unauthorized)
            let placed = try await api.send(.post, "/api/v1/holds", json: body, token: bob)
            #expect(placed.status == .created && placed.headers[.location] == "/api/v1/me/holds", "\(placed.text)")
            let hold = try placed.object
            #expect(hold["status"] as? String == "waiting" && hold["position"] as? Int == 1 && hold["copies"] as? Int == 1)
            let bobs = try #require(hold["id"] as? String)
            #expect(try await api.send(.post, "/api/v1/holds", json: body, token: cy).object["position"] as? Int == 2)
            // The rule, named: the borrower holds it already, a second hold, a free copy.
            let onLoan = try await api.send(.post, "/api/v1/holds", json: body, token: ada)
            let onLoanProblem = try onLoan.object
            #expect(onLoan.status == .conflict && onLoanProblem["type"] as? String == "urn:shelfmark:problem:hold-refused")
            #expect((onLoanProblem["detail"] as? String)?.contains("you have “Dune” on loan already") == true)
            let twice = try await api.send(.post, "/api/v1/holds", json: body, token: bob)
            let twiceProblem = try twice.object
            #expect(twice.status == .conflict && twiceProblem["detail"] as? String == "you already hold “Dune”: you are number 1 in line")
            let free = try await addBook(api, "Emma")
            let shelf = try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(free)"}"#, token: bob)
            let shelfProblem = try shelf.object
            #expect(shelf.status == .conflict && shelfProblem["detail"] as? String == "a copy of “Emma” is on the shelf: borrow it")

            // Listing: one's own; a book's line and every hold for librarians only.
            #expect(try await api.send(.get, "/api/v1/me/holds", token: .none).status == .unauthorized)
            #expect((try await api.send(.get, "/api/v1/me/holds", token: bob).object["items"] as? [[String: Any]])?.count == 1)
            #expect((try await api.send(.get, "/api/v1/me/holds", token: ada).object["items"] as? [Any])?.isEmpty == true)
            for uri in ["/api/v1/books/\(dune)/holds", "/api/v1/holds", "/api/v1/holds?status=ready"] {
                #expect(try await api.send(.get, uri, token: .none).status == .unauthorized, "\(uri)")
                #expect(try await api.send(.get, uri, token: bob).status == .forbidden, "\(uri)")
            }
            let line = try await api.send(.get, "/api/v1/books/\(dune)/holds").object["items"] as? [[String: Any]]
            #expect(line?.map { $0["memberName"] as? String } == ["bob", "cy"] && line?.map { $0["position"] as? Int } == [1, 2])
            #expect(try await api.send(.get, "/api/v1/books/7d2c1a0e-0000-4000-8000-000000000000/holds").status == .notFound)

            // A return: the copy is kept for Bob, who is told; nobody else may borrow it.
            let returned = try await api.send(.post, "/api/v1/loans/\(loan)/return", token: ada)
            let returnedLoan = try returned.object
            #expect(returned.status == .ok && returnedLoan["returnedAt"] != nil)
            #expect(returnedLoan["setAsideFor"] == nil, "another member's hold is not the borrower's to see")
            let shown = try await api.send(.get, "/api/v1/books/\(dune)").object
            #expect(shown["holdCount"] as? Int == 2 && shown["available"] as? Int == 0, "the copy kept for Bob is not available")
            let ready = try await api.send(.get, "/api/v1/holds?status=ready").object["items"] as? [[String: Any]]
            #expect(ready?.map { $0["memberName"] as? String } == ["bob"] && ready?.first?["pickupUntil"] != nil)
            let notices = try await api.send(.get, "/api/v1/me/notifications", token: bob).object["items"] as? [[String: Any]]
            #expect(notices?.first?["kind"] as? String == "ready-for-pickup" && notices?.first?["holdId"] as? String == bobs)
            #expect(notices?.first?["loanId"] == nil)
            let kept = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: cy)
            let keptProblem = try kept.object
            // A loan refused, not a hold: Cy placed none (found by an outside walk).
            #expect(kept.status == .conflict && keptProblem["type"] as? String == "urn:shelfmark:problem:loan-refused")

            // Cancelling: anonymous 401; another member's hold is not found; its member and a librarian may.
            #expect(try await api.send(.delete, "/api/v1/holds/\(bobs)", token: .none).status == .unauthorized)
            #expect(try await api.send(.delete, "/api/v1/holds/\(bobs)", token: cy).status == .notFound)
            let cancelled = try await api.send(.delete, "/api/v1/holds/\(bobs)", token: bob)
            let cancelledHold = try cancelled.object
            #expect(cancelled.status == .ok && cancelledHold["status"] as? String == "cancelled")
            let cys = try #require((try await api.send(.get, "/api/v1/me/holds", token: cy).object["items"] as? [[String: Any]])?.first)
            #expect(cys["status"] as? String == "ready", "Bob's copy went to Cy")
            let byLibrarian = try await api.send(.delete, "/api/v1/holds/\(try #require(cys["id"] as? String))")
            let byLibrarianHold = try byLibrarian.object
            #expect(byLibrarian.status == .ok && byLibrarianHold["status"] as? String == "cancelled")
            #expect(try await api.send(.delete, "/api/v1/holds/not-a-hold", token: bob).status == .notFound)
            // Who was waiting, as the log says it was: at any moment, for librarians.
            let now = Date().addingTimeInterval(60).formatted(.iso8601)
            let asOf = try await api.send(.get, "/api/v1/audit/as-of?at=\(now)&view=holds&book=\(dune)").object
            #expect((asOf["holds"] as? [Any])?.isEmpty == true && (asOf["events"] as? Int ?? 0) > 0)
            #expect(try await api.send(.get, "/api/v1/audit/as-of?at=\(now)&view=holds").status == .badRequest)
        }
    }

    @Test func aLibrarianTakingACopyBackIsToldWhomToSetItAsideFor() async throws {
        try await withAPI { api in
            let (dune, emma) = (try await addBook(api, "Dune"), try await addBook(api, "Emma"))
            let lent = try await api.send(.post, "/api/v1/books/\(dune)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#).object
            let other = try await api.send(.post, "/api/v1/books/\(emma)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#).object
            let bob = try await api.signUpMember("bob@example.org")
            #expect(try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(dune)"}"#, token: bob).status == .created)

            // Dune, which Bob waits for: the answer names his hold, ready for pickup
            let back = try await api.send(.post, "/api/v1/loans/\(try #require(lent["id"] as? String))/return")
            let kept = try #require(try back.object["setAsideFor"] as? [String: Any], "\(back.text)")
            #expect(try back.object["returnedBefore"] as? Bool == false)
            // Again (a retry): it had been returned; nothing is said of the copy
            let retried = try await api.send(.post, "/api/v1/loans/\(try #require(lent["id"] as? String))/return").object
            #expect(retried["returnedBefore"] as? Bool == true && retried["setAsideFor"] == nil)
            #expect(back.status == .ok && kept["memberName"] as? String == "bob")
            #expect(kept["status"] as? String == "ready" && kept["pickupUntil"] != nil && kept["bookId"] as? String == dune)
            // Emma, which nobody waits for: back on the shelf, no hold named
            let shelved = try await api.send(.post, "/api/v1/loans/\(try #require(other["id"] as? String))/return")
            #expect(try shelved.status == .ok && shelved.object["setAsideFor"] == nil)
        }
    }

    @Test func renewAllSaysOfEachLoanWhetherItWasRenewed() async throws {
        try await withAPI { api in
            let (dune, emma) = (try await addBook(api, "Dune"), try await addBook(api, "Emma"))
            let ada = try await api.signUpMember("ada@example.org")
            let bob = try await api.signUpMember("bob@example.org")
            #expect(
                try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)","\#(emma)"]}"#, token: ada).status == .created)
            #expect(try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(dune)"}"#, token: bob).status == .created)
            #expect(try await api.send(.post, "/api/v1/me/loans/renew-all", token: .none).status == .unauthorized)
            let answer = try await api.send(.post, "/api/v1/me/loans/renew-all", token: ada)
            #expect(answer.status == .ok, "\(answer.text)")
            let renewals = try #require(try answer.object["renewals"] as? [[String: Any]])
            let byTitle = Dictionary(
                uniqueKeysWithValues: renewals.map { (($0["loan"] as? [String: Any])?["bookTitle"] as? String ?? "", $0) })
            #expect(byTitle["Emma"]?["renewed"] as? Bool == true && byTitle["Emma"]?["reason"] == nil)
            #expect(byTitle["Dune"]?["renewed"] as? Bool == false)
            #expect((byTitle["Dune"]?["reason"] as? String)?.contains("another member is waiting for the book") == true)
            #expect((try await api.send(.post, "/api/v1/me/loans/renew-all", token: bob).object["renewals"] as? [Any])?.isEmpty == true)
        }
    }
}
