import Application
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HTTPAPI

/// Issue 21: `ETag` on books, loans and accounts (their stream versions), `If-Match` on a book's
/// edit and withdrawal (a stale one is a 412 naming the current version, and changes nothing),
/// `If-None-Match` on reads (304).
@Suite("ETag, If-Match, If-None-Match")
struct HTTPEntityTagTests {
    static let dune = #"{"title":"Dune","authors":["Frank Herbert"],"copies":2}"#

    @Test func aBookIsReadAgainOnlyWhenItChanged() async throws {
        try await withAPI { api in
            let created = try await api.send(.post, "/api/v1/books", json: Self.dune)
            let id = try #require(try created.object["id"] as? String)
            let tag = try #require(created.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.contains("%"), "\(tag)")
            let shown = try await api.send(.get, "/api/v1/books/\(id)")
            #expect(shown.status == .ok && shown.headers[.eTag] == tag)
            for condition in [tag, "W/\(tag)", "\"9.9\", \(tag)", "*"] {
                let again = try await api.send(.get, "/api/v1/books/\(id)", headers: [.ifNoneMatch: condition])
                #expect(again.status == .notModified && again.body.readableBytes == 0 && again.headers[.eTag] == tag, "\(condition)")
            }
            let other = try await api.send(.get, "/api/v1/books/\(id)", headers: [.ifNoneMatch: "\"9.9\""])
            #expect(other.status == .ok && other.headers[.eTag] == tag)
            let missing = try await api.send(.get, "/api/v1/books/\(UUID())", headers: [.ifNoneMatch: "*"])
            #expect(missing.status == .notFound)
        }
    }

    @Test func aStaleEditOrWithdrawalIsRefusedWithTheCurrentVersionAndChangesNothing() async throws {
        try await withAPI { api in
            let created = try await api.send(.post, "/api/v1/books", json: Self.dune)
            let id = try #require(try created.object["id"] as? String)
            let read = try #require(created.headers[.eTag])
            let first = try await api.send(
                .patch, "/api/v1/books/\(id)", json: #"{"publisher":"Chilton"}"#, headers: [.ifMatch: read])
            #expect(first.status == .ok)
            let current = try #require(first.headers[.eTag])
            #expect(current != read)
            let stale = try await api.send(.patch, "/api/v1/books/\(id)", json: #"{"publisher":"Ace"}"#, headers: [.ifMatch: read])
            #expect(stale.status == .preconditionFailed && stale.problemType == "urn:shelfmark:problem:stale-version")
            #expect(stale.headers[.eTag] == current)
            #expect((try stale.object["detail"] as? String)?.contains(current.trimmingCharacters(in: ["\""])) == true, "\(stale.text)")
            let weak = try await api.send(.patch, "/api/v1/books/\(id)", json: #"{"publisher":"Ace"}"#, headers: [.ifMatch: "W/\(current)"])
            #expect(weak.status == .preconditionFailed, "If-Match compares strongly")
            let book = try await api.send(.get, "/api/v1/books/\(id)")
            #expect(try book.object["publisher"] as? String == "Chilton")
            #expect(try await api.send(.delete, "/api/v1/books/\(id)", headers: [.ifMatch: read]).status == .preconditionFailed)
            #expect(try await api.send(.get, "/api/v1/books/\(id)").status == .ok)
            let malformed = try await api.send(.delete, "/api/v1/books/\(id)", headers: [.ifMatch: ""])
            #expect(malformed.status == .badRequest && malformed.text.contains("If-Match"), "\(malformed.text)")
            let invalid = try await api.send(.patch, "/api/v1/books/\(id)", json: #"{"title":""}"#, headers: [.ifMatch: read])
            #expect(invalid.status == .badRequest, "a refused field is said before the version: \(invalid.text)")
            #expect(try await api.send(.delete, "/api/v1/books/\(id)", headers: [.ifMatch: "\"1.0\", \(current)"]).status == .noContent)
            let again = try await api.send(.delete, "/api/v1/books/\(id)", headers: [.ifMatch: read])
            #expect(again.status == .noContent, "a withdrawn book has no version left to compare: \(again.text)")
        }
    }

    @Test func aLoanOrAHoldMakesAnEarlierVersionStale() async throws {
        try await withAPI { api in
            let created = try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"]}"#)
            let id = try #require(try created.object["id"] as? String)
            let before = try #require(created.headers[.eTag])
            let ada = try await api.signUpMember("ada@example.org")
            let borrowed = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(id)"]}"#, token: ada)
            #expect(borrowed.status == .created, "\(borrowed.text)")
            let lent = try #require(try await api.send(.get, "/api/v1/books/\(id)").headers[.eTag])
            #expect(lent != before)
            let bob = try await api.signUpMember("bob@example.org")
            #expect(try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(id)"}"#, token: bob).status == .created)
            let held = try #require(try await api.send(.get, "/api/v1/books/\(id)").headers[.eTag])
            #expect(held != lent, "the waiting list's length is in the answer, so in its version")
            let stale = try await api.send(.patch, "/api/v1/books/\(id)", json: #"{"publisher":"Ace"}"#, headers: [.ifMatch: lent])
            let current = try #require(stale.headers[.eTag])
            #expect(
                stale.status == .preconditionFailed && held.hasPrefix(current.dropLast() + ";"), "the current version: \(current), \(held)")
        }
    }

    @Test func aLibrariansCopyIsStaleOnceTheLastBorrowerIsRenamed() async throws {
        try await withAPI { api in
            let created = try await api.send(.post, "/api/v1/books", json: Self.dune)
            let id = try #require(try created.object["id"] as? String)
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(id)"]}"#, token: ada).status == .created)
            let before = try #require(try await api.send(.get, "/api/v1/books/\(id)").headers[.eTag])
            let memberView = try #require(try await api.send(.get, "/api/v1/books/\(id)", token: .none).headers[.eTag])
            #expect(before != memberView, "the librarian sees the borrower's name, a visitor does not")
            #expect(try await api.send(.patch, "/api/v1/me", json: #"{"displayName":"Ada L."}"#, token: ada).status == .ok)
            let renamed = try await api.send(.get, "/api/v1/books/\(id)", headers: [.ifNoneMatch: before])
            #expect(renamed.status == .ok && renamed.headers[.eTag] != before, "\(renamed.status)")
            let edit = try await api.send(.patch, "/api/v1/books/\(id)", json: #"{"publisher":"Ace"}"#, headers: [.ifMatch: before])
            #expect(edit.status == .ok, "the book itself did not change: \(edit.text)")
        }
    }

    @Test func anAccountAndALoanCarryTheirVersions() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            let me = try await api.send(.get, "/api/v1/me", token: ada)
            let tag = try #require(me.headers[.eTag])
            #expect(try await api.send(.get, "/api/v1/me", token: ada, headers: [.ifNoneMatch: tag]).status == .notModified)
            let renamed = try await api.send(.patch, "/api/v1/me", json: #"{"displayName":"Ada L."}"#, token: ada)
            let newTag = try #require(renamed.headers[.eTag])
            #expect(renamed.status == .ok && newTag != tag)
            #expect(try await api.send(.get, "/api/v1/me", token: ada, headers: [.ifNoneMatch: tag]).status == .ok)

            let book = try await api.send(.post, "/api/v1/books", json: Self.dune)
            let id = try #require(try book.object["id"] as? String)
            let borrowed = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(id)"]}"#, token: ada)
            let loans = try #require(try borrowed.object["loans"] as? [[String: Any]])
            let loan = try #require(loans.first?["id"] as? String)
            let renewed = try await api.send(.post, "/api/v1/loans/\(loan)/renew", token: ada)
            let returned = try await api.send(.post, "/api/v1/loans/\(loan)/return", token: ada)
            let renewedTag = try #require(renewed.headers[.eTag])
            let returnedTag = try #require(returned.headers[.eTag])
            #expect(renewedTag != returnedTag, "\(renewed.text)")
        }
    }

    @Test func conditionsAreReadAsEntityTagLists() throws {
        let version = ResourceVersion([7, 2])
        #expect(try EntityTags.accepted(ifMatch: nil) == nil && EntityTags.accepted(ifMatch: " * ") == nil)
        #expect(try EntityTags.accepted(ifMatch: "\"7.2\"") == [version])
        #expect(try EntityTags.accepted(ifMatch: "W/\"7.2\", \"x\", \"7..2\", \"-1\"") == [], "weak and odd tags match nothing")
        #expect(try EntityTags.accepted(ifMatch: "\"1\",\"7.2\"")?.contains(version) == true)
        // Found by an outside test: "07.02" named version 7.2, but tags are compared as text.
        #expect(try EntityTags.accepted(ifMatch: "\"07.2\", \"7.02\", \"007\"") == [])
        #expect(try EntityTags.accepted(ifMatch: "\"0.0\"") == [ResourceVersion([0, 0])])
        for malformed in ["", " , ", "7.2", "\"7.2", "W/7.2", "\"a\"b\"", "\"7.2\" \"7.3\""] {
            #expect(throws: InvalidInput.self, "\(malformed)") { try EntityTags.accepted(ifMatch: malformed) }
        }
        let tag = EntityTags.tag(version)
        #expect(EntityTags.unchanged(ifNoneMatch: "W/\"7.2\"", current: tag))
        #expect(!EntityTags.unchanged(ifNoneMatch: "\"7.3\"", current: tag) && !EntityTags.unchanged(ifNoneMatch: nil, current: tag))
        #expect(!EntityTags.unchanged(ifNoneMatch: "", current: tag) && !EntityTags.unchanged(ifNoneMatch: "7.2", current: tag))
        let shown = EntityTags.tag(version, showing: "Ada")
        #expect(shown != EntityTags.tag(version, showing: "Ada L.") && shown.hasPrefix("\"7.2;"))
        #expect(!EntityTags.unchanged(ifNoneMatch: tag, current: shown), "what the answer shows of others is in the tag")
        #expect(try EntityTags.accepted(ifMatch: shown) == [version], "If-Match compares the version part")
        #expect(EntityTags.tag(version) == "\"7.2\"")
    }
}
