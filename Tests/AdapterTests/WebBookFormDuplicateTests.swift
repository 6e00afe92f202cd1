import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The book form's answer to an ISBN already catalogued: the refusal, then the box that asks for a
/// second record, through the real application and its SQLite database.
@Suite("Web: a duplicate ISBN on the book form")
struct WebBookFormDuplicateTests {
    @Test func aDuplicateISBNIsRefusedThenAddedWhenTheOfferedBoxIsTicked() async throws {
        try await withAPI { api in
            let librarian = Browser(api, session: api.librarianToken)
            let dune = [("title", "Dune"), ("authors", "Frank Herbert"), ("isbn", "0-441-17271-7"), ("copies", "1")]
            try await librarian.get("/books/new")
            #expect(try await librarian.post("/books", dune).status == .seeOther)
            // The form has no box until an ISBN is refused as already catalogued
            #expect(try await librarian.get("/books/new").shows(#"id="allowDuplicate""#) == false)

            try await librarian.get("/books/new")
            let refused = try await librarian.post("/books", dune)
            #expect(refused.status == .conflict && refused.shows("ask for a second record explicitly"))
            #expect(refused.shows(#"<input id="allowDuplicate" name="allowDuplicate" type="checkbox" value="on">"#))
            #expect(refused.shows(#"<label for="allowDuplicate">Ask for a second record of this ISBN: add it anyway</label>"#))
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 1)

            let added = try await librarian.post("/books", dune + [("allowDuplicate", "on")])
            #expect(added.status == .seeOther)
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 2)
        }
    }
}
