import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Closing accounts over HTTP: DELETE /api/v1/me and DELETE /api/v1/users/{idOrEmail}, each for an
/// anonymous caller, the member, another member and a librarian; the refusals name why.
@Suite("HTTP API: closing accounts")
struct HTTPClosingTests {
    @Test func eachRouteForAnonymousTheMemberAnotherMemberAndALibrarian() async throws {
        try await withAPI { api in
            let dune = try #require(
                try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["F"],"copies":1}"#).object["id"] as? String)
            let (ada, bob) = (try await api.signUpMember("ada@example.org"), try await api.signUpMember("bob@example.org"))
            let loan = try #require(
                ((try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada).object["loans"])
                    as? [[String: Any]])?.first?["id"] as? String)

            // Anonymous: 401 on both; a member on another's account: 403 before anything is looked up.
            #expect(try await api.send(.delete, "/api/v1/me", token: .none).status == .unauthorized)
            #expect(try await api.send(.delete, "/api/v1/users/ada@example.org", token: .none).status == .unauthorized)
            #expect(try await api.send(.delete, "/api/v1/users/ada@example.org", token: bob).status == .forbidden)
            #expect(try await api.send(.delete, "/api/v1/users/nobody@example.org", token: bob).status == .forbidden)

            // The member with a book out: 409 naming it, whoever asks.
            let refused = try await api.send(.delete, "/api/v1/me", token: ada)
            let problem = try refused.object
            #expect(refused.status == .conflict && problem["type"] as? String == "urn:shelfmark:problem:account-stays-open")
            #expect((problem["detail"] as? String)?.contains("return “Dune” (due ") == true, "\(refused.text)")
            #expect(try await api.send(.delete, "/api/v1/users/ada@example.org").status == .conflict)
            // The last librarian stays.
            let last = try await api.send(.delete, "/api/v1/me")
            let lastType = try last.object["type"] as? String
            #expect(last.status == .conflict && lastType == "urn:shelfmark:problem:last-librarian")

            // Another member closes their own account: 204, their token is refused at once, the address is free.
            #expect(try await api.send(.delete, "/api/v1/me", token: bob).status == .noContent)
            #expect(try await api.send(.get, "/api/v1/me", token: bob).status == .unauthorized)
            #expect(try await api.send(.delete, "/api/v1/users/bob@example.org").status == .notFound)
            _ = try await api.signUpMember("bob@example.org")

            // A librarian closes the member's account once the book is back: 204, and the member is gone.
            #expect(try await api.send(.post, "/api/v1/loans/\(loan)/return", token: ada).status == .ok)
            #expect(try await api.send(.delete, "/api/v1/users/ada@example.org").status == .noContent)
            #expect(try await api.send(.get, "/api/v1/me", token: ada).status == .unauthorized)
            #expect(try await api.send(.get, "/api/v1/users/ada@example.org").status == .notFound)
            let loans = try await api.send(.get, "/api/v1/loans?book=\(dune)")
            #expect(!loans.text.contains("ada"), "\(loans.text)")
            // The book's last checkout names them as a librarian reads it: "erased member".
            let book = try await api.send(.get, "/api/v1/books/\(dune)")
            #expect((try book.object["lastCheckout"] as? [String: Any])?["name"] as? String == "erased member", "\(book.text)")
        }
    }
}
