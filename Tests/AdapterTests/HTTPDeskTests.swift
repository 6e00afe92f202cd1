import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The front desk over HTTP: each new route for an anonymous caller, the member, another member
/// and a librarian; cards on GET /me and as a barcode; walk-in borrowers listed by name.
@Suite("HTTP API: the front desk")
struct HTTPDeskTests {
    func addBook(_ api: APIClient, _ title: String) async throws -> String {
        try #require(
            try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(title)","authors":["A"],"copies":1}"#).object["id"] as? String)
    }

    @Test func everyMemberShowsACardNumberAndItsBarcode() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            let me = try await api.send(.get, "/api/v1/me", token: ada).object
            let card = try #require(me["cardNumber"] as? String)
            #expect(card.count == 10 && card.allSatisfy(\.isNumber) && Int(card).map { $0 % 97 == 1 } == true)
            let svg = try await api.send(.get, "/api/v1/me/card", token: ada)
            #expect(svg.status == .ok && svg.headers[.contentType] == "image/svg+xml", "\(svg.text)")
            #expect(svg.text.hasPrefix("<?xml") && svg.text.contains("<svg") && svg.text.contains(String(card.prefix(5))))
            #expect(try XMLDocument(xmlString: svg.text).rootElement()?.name == "svg")
            // Asking for the image explicitly, or anything, is fine; asking for JSON only is not.
            for accept in ["image/svg+xml", "image/*", "*/*"] {
                let answer = try await api.client.execute(
                    uri: "/api/v1/me/card", method: .get, headers: [.authorization: "Bearer \(ada)", .accept: accept])
                #expect(answer.status == .ok, "\(accept)")
            }
            let json = try await api.client.execute(
                uri: "/api/v1/me/card", method: .get, headers: [.authorization: "Bearer \(ada)", .accept: "application/json"])
            #expect(json.status == .notAcceptable)
            #expect(try await api.send(.get, "/api/v1/me/card", token: .none).status == .unauthorized)
            #expect(try await api.send(.get, "/api/v1/me", token: api.librarianToken).object["cardNumber"] != nil)
        }
    }

    @Test func aMembersRecordForEachCaller() async throws {
        try await withAPI { api in
            let dune = try await addBook(api, "Dune")
            let (ada, bob) = (try await api.signUpMember("ada@example.org"), try await api.signUpMember("bob@example.org"))
            let me = try await api.send(.get, "/api/v1/me", token: ada).object
            let (id, card) = (try #require(me["id"] as? String), try #require(me["cardNumber"] as? String))
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada).status == .created)
            for name in [id, "ada@example.org", card] {
                #expect(try await api.send(.get, "/api/v1/users/\(name)", token: .none).status == .unauthorized)
                #expect(try await api.send(.get, "/api/v1/users/\(name)", token: ada).status == .forbidden, "even one's own: a librarian's")
                #expect(try await api.send(.get, "/api/v1/users/\(name)", token: bob).status == .forbidden)
                let record = try await api.send(.get, "/api/v1/users/\(name)")
                let body = try record.object
                #expect(record.status == .ok && (body["user"] as? [String: Any])?["cardNumber"] as? String == card, "\(record.text)")
                #expect((body["loans"] as? [[String: Any]])?.map { $0["bookTitle"] as? String } == ["Dune"])
            }
            let unknown = try await api.send(.get, "/api/v1/users/nobody@example.org")
            #expect(unknown.status == .notFound && unknown.problemType == "urn:shelfmark:problem:not-found")
        }
    }

    @Test func lendingAtTheDeskForEachCaller() async throws {
        try await withAPI { api in
            let (dune, emma, ulysses) = (try await addBook(api, "Dune"), try await addBook(api, "Emma"), try await addBook(api, "Ulysses"))
            let (ada, bob) = (try await api.signUpMember("ada@example.org"), try await api.signUpMember("bob@example.org"))
            let me = try await api.send(.get, "/api/v1/me", token: ada).object
            let (id, card) = (try #require(me["id"] as? String), try #require(me["cardNumber"] as? String))
            let body = #"{"card":"\#(card.prefix(5)) \#(card.suffix(5))","bookIds":["\#(dune)","\#(emma)"]}"#
            #expect(try await api.send(.post, "/api/v1/desk/loans", json: body, token: .none).status == .unauthorized)
            #expect(try await api.send(.post, "/api/v1/desk/loans", json: body, token: ada).status == .forbidden)
            #expect(try await api.send(.post, "/api/v1/desk/loans", json: body, token: bob).status == .forbidden)
            let lent = try await api.send(.post, "/api/v1/desk/loans", json: body)
            #expect(lent.status == .created && lent.headers[.location] == "/api/v1/users/\(id)", "\(lent.text)")
            let answer = try lent.object
            #expect((answer["member"] as? [String: Any])?["email"] as? String == "ada@example.org")
            let loans = try #require(answer["loans"] as? [[String: Any]])
            #expect(loans.count == 2 && loans.allSatisfy { $0["borrowerId"] as? String == id })
            // The member sees them as her own; the Location lists them.
            #expect((try await api.send(.get, "/api/v1/me/loans", token: ada).object["items"] as? [Any])?.count == 2)
            #expect((try await api.send(.get, "/api/v1/users/\(id)").object["loans"] as? [Any])?.count == 2)
            // A mistyped card is a 400 naming the field, before any lookup; by email the same rules hold.
            let typo = String(card.dropLast()) + (card.last == "0" ? "1" : "0")
            let refused = try await api.send(.post, "/api/v1/desk/loans", json: #"{"card":"\#(typo)","bookIds":["\#(ulysses)"]}"#)
            let problem = try refused.object
            #expect(refused.status == .badRequest && (problem["errors"] as? [[String: Any]])?.first?["field"] as? String == "card")
            let both = try await api.send(
                .post, "/api/v1/desk/loans", json: #"{"card":"\#(card)","email":"ada@example.org","bookIds":["\#(ulysses)"]}"#)
            #expect(both.status == .badRequest)
            let twice = try await api.send(.post, "/api/v1/desk/loans", json: #"{"email":"ada@example.org","bookIds":["\#(dune)"]}"#)
            let twiceProblem = try twice.object
            #expect(twice.status == .conflict && twiceProblem["type"] as? String == "urn:shelfmark:problem:loan-refused")
            #expect((twiceProblem["detail"] as? String)?.contains("ada has it on loan already") == true, "\(twice.text)")
            let nobody = try await api.send(.post, "/api/v1/desk/loans", json: #"{"email":"nobody@example.org","bookIds":["\#(ulysses)"]}"#)
            #expect(nobody.status == .notFound)
        }
    }

    @Test func walkInBorrowersHaveTheirOwnLimitAndAreListedByName() async throws {
        try await withAPI(configure: { $0.loanPolicy.maxWalkInLoans = 2 }) { api in
            var books: [String] = []
            for n in 1...3 { books.append(try await addBook(api, "Book \(n)")) }
            for (book, name) in zip(books, ["Mrs Hudson", "mrs  hudson"]) {
                let lent = try await api.send(.post, "/api/v1/books/\(book)/checkout", json: #"{"borrowerName":"\#(name)"}"#)
                #expect(lent.status == .created)
            }
            let third = try await api.send(.post, "/api/v1/books/\(books[2])/checkout", json: #"{"borrowerName":"MRS HUDSON"}"#)
            let problem = try third.object
            #expect(third.status == .conflict && problem["type"] as? String == "urn:shelfmark:problem:loan-refused")
            #expect((problem["detail"] as? String)?.hasPrefix("MRS HUDSON has 2 books on loan at the desk") == true, "\(third.text)")
            let listed = try await api.send(.get, "/api/v1/loans?borrower=Mrs%20Hudson").object
            #expect(listed["total"] as? Int == 2)
            let byMember = try await api.send(.get, "/api/v1/loans?member=Mrs%20Hudson")
            let memberProblem = try byMember.object
            #expect(byMember.status == .badRequest, "\(byMember.text)")
            #expect((memberProblem["detail"] as? String)?.contains("give the name as borrower instead") == true, "\(byMember.text)")
            #expect(try await api.send(.get, "/api/v1/loans?borrower=Mrs%20Hudson", token: .none).status == .unauthorized)
            // Found by an outside walk: an empty name listed nobody's loans with a 200, and the same
            // book could be lent twice to one name (a double click at the desk).
            for empty in ["", "%20%20"] {
                let nobody = try await api.send(.get, "/api/v1/loans?borrower=\(empty)")
                #expect(nobody.status == .badRequest && nobody.text.contains("borrower"), "\(empty): \(nobody.text)")
            }
            for (hidden, said) in [
                (#"Mrs Hudson\u200d"#, "invisible"), (#"Mrs\u034f Hudson"#, "invisible"), (#"Mrs Hudson\u2800"#, "invisible"),
                (#"\uff2drs Hudson"#, "look like plain ones"),
            ] {
                let unseen = try await api.send(.post, "/api/v1/books/\(books[0])/checkout", json: #"{"borrowerName":"\#(hidden)"}"#)
                #expect(unseen.status == .badRequest && unseen.text.contains(said), "\(hidden): \(unseen.text)")
            }
            let twice = try await api.send(.post, "/api/v1/books/\(books[0])/checkout", json: #"{"borrowerName":"MRS HUDSON"}"#)
            #expect(
                twice.status == .conflict
                    && twice.text.contains("Mrs Hudson has “Book 1” on loan already: a walk-in borrower has one copy of a book at a time"),
                "\(twice.text)")
        }
    }
}
