import Application
import Domain
import Foundation
import Testing
import Wording

/// Every message and field problem has English words (the confirmations: `ConfirmationTests`),
/// and none of them lets a Swift type name, an `Optional(…)` or an errno through. The samples
/// cover every case: `key(of:)` switches over each type with no default, so a new case does not
/// compile until it has a key, and `sample(_:)` switches over the keys.
@Suite("Message catalogue")
struct MessageCatalogueTests {
    static let english = Wording.english

    @Test("every message reads as English, with no type name", arguments: MessageKey.allCases)
    func message(key: MessageKey) {
        let message = MessageSamples.sample(key)
        #expect(MessageSamples.key(of: message) == key)
        Self.expectReadable(Self.english.text(message), "\(key)")
    }

    @Test("every field problem reads as English, with no type name", arguments: FieldProblemKey.allCases)
    func fieldProblem(key: FieldProblemKey) {
        let problem = FieldProblemSamples.sample(key)
        #expect(FieldProblemSamples.key(of: problem) == key)
        Self.expectReadable(Self.english.text(problem), "\(key)")
    }

    @Test func refusalsNameTheBookByItsTitleAndOnce() {
        let id = BookID(UUID())
        let text = BookRefused(id, .copiesOnLoan(book: id, onLoan: 1), title: "The Hobbit").english
        #expect(text == "“The Hobbit” has 1 copy on loan, so it cannot be withdrawn until it is returned")
        #expect(!text.contains(id.description))
        // Without a title (never loaded), the id stands in, once.
        let untitled = BookRefused(id, .noCopyAvailable(book: id, copies: 2)).english
        #expect(untitled == "no copy of book \(id) is available: all 2 copies are on loan")
    }

    @Test func isbnProblemsAreSentences() {
        #expect(
            Self.english.text(FieldProblem.notAnISBN("hello", .invalidCharacter("h")))
                == "'hello' is not an ISBN: an ISBN has 10 or 13 digits (hyphens and spaces between them are fine, and the last may be X), and 'h' is not a digit"
        )
        #expect(
            Self.english.text(FieldProblem.notAnISBN("12345", .wrongLength(5)))
                == "'12345' is not an ISBN: an ISBN has 10 or 13 digits, and this has 5")
    }

    @Test func aMemberLookedUpByAddressIsSaidSo() {
        let ghost = Self.english.text(.notFound(.user, id: "ghost@example.org"))
        #expect(ghost == "there is no member with the email address 'ghost@example.org'")
        #expect(Self.english.text(.notFound(.user, id: "ada.m")) == "there is no member with the username 'ada.m'")
        let id = "3f2a6c1e-8b4d-4c2e-9a7f-1d2e3f4a5b6c"
        #expect(Self.english.text(.notFound(.user, id: id)) == "there is no member with id '\(id)'")
        #expect(
            Self.english.text(.notFound(.user, id: "Mrs Hudson"))
                == "'Mrs Hudson' names no member: give their email address, username, library card number or account id")
    }

    @Test func enumerationsListTheirChoices() {
        #expect(Self.english.text(FieldProblem.notOneOf(["member", "librarian"])) == "must be one of 'member' or 'librarian'")
        #expect(Self.english.text(FieldProblem.notOneOf(["newest", "oldest", "title"])) == "must be one of 'newest', 'oldest' or 'title'")
    }

    @Test func theOverdueBlockListsTitlesAndDueDates() {
        let due = Date(timeIntervalSince1970: 1_796_601_600)  // 2026-12-07
        let text = Self.english.text(.blockedByOverdue([OverdueBook(title: "Dune", dueAt: due), OverdueBook(title: "Emma", dueAt: due)]))
        #expect(text == "please return your overdue books first: “Dune” (due December 7, 2026) and “Emma” (due December 7, 2026)")
    }

    @Test func theCatalogueIsChosenByLanguage() {
        let french = Wording(Language.negotiate(acceptLanguage: "fr-CA, fr;q=0.9") ?? .english)
        #expect(french.text(.contention) != Self.english.text(.contention))
        #expect(french.language == .french)
    }

    /// Marks of a debugger's text: Swift type names and their dumps, errno, library words.
    static let forbidden = [
        "Optional(", "errno", "Error", "Identifier<", "BookID", "LoanID", "UserID", "FieldProblem", "Rejection", "Swift.",
        "rawValue", "(book:", "DecodingError", "nil",
    ]

    static func expectReadable(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(what) has no words", sourceLocation: sourceLocation)
        for mark in forbidden {
            #expect(!text.contains(mark), "\(what) reads \"\(text)\", which holds \(mark)", sourceLocation: sourceLocation)
        }
    }
}

extension MessageCatalogueTests {
    @Test func everyVariantOfTheSmallEnumerationsReads() {
        for problem in FieldProblemSamples.everyVariant { Self.expectReadable(Self.english.text(problem), "\(problem)") }
        for thing in NotFound.Thing.allCases { Self.expectReadable(Self.english.text(.notFound(thing, id: "x")), "\(thing)") }
        for thing in NotFound.Thing.allCases { Self.expectReadable(Self.english.text(.notFound(thing, id: "")), "\(thing)") }
        for upstream in Upstream.allCases { Self.expectReadable(Self.english.text(.upstreamUnavailable(upstream)), "\(upstream)") }
        let listening: [ListenProblem] = [
            .portInUse(host: "::1", port: 80), .portNeedsPrivilege(host: "::1", port: 80), .notAnAddressHere(host: "10.9.9.9"),
            .unknownHost("nowhere.invalid"),
        ]
        for listing in Listing.allCases { Self.expectReadable(Self.english.text(.nothingListed(listing)), "\(listing)") }
        let requests: [RequestTrouble] = [
            .noSuchPath("/api/v1/nothing"), .methodNotAllowed(method: "PUT", path: "/api/v1/books", allowed: ["GET", "POST"]),
            .malformedURL, .notJSON, .valueUnreadable, .notHTTP, .headersTooLarge, .notAnObject, .bodyRequired, .unsupportedMediaType,
            .notAcceptable, .unreadable, .storageUnavailable, .badContentLength, .bodyIncomplete, .bodyTooLarge(max: 1_048_576),
            .bodyTooSlow(seconds: 10), .duplicateKey("title"), .contentTypes(2), .notUTF8(charset: "utf-16"), .contractMissing, .noSuchPage,
            .notAForm, .formTooLarge(max: 65536),
            .staleForm,
        ]
        for trouble in requests { Self.expectReadable(Self.english.text(.request(trouble)), "\(trouble)") }
        let retries: [RetryTrouble] = [.badKey, .keyReused, .inProgress, .answerNotKept(recordedAt: Date(timeIntervalSince1970: 0))]
        for trouble in retries { Self.expectReadable(Self.english.text(.retry(trouble)), "\(trouble)") }
        let integrity: [IntegrityProblem] = [
            .keyFileUnreadable(path: "k"), .notAKeyFile(path: "k"), .keyFileExists(path: "k"), .keyFileUncreatable(path: "k"),
            .keyFileUnwritable(path: "k"), .keyNeeded(keyedFrom: 1), .keyOfAnotherDatabase(path: "k", keyedFrom: 5, head: 9),
            .keyFileMissing(path: "k", keyedFrom: 1), .keyDisagrees(path: "k", fileKeyedFrom: 1, fileKey: "a", keyedFrom: 2, key: "b"),
            .anchorFileUnwritable(path: "a"), .anchorNeedsKey,
        ]
        for problem in integrity { Self.expectReadable(Self.english.text(.integrity(problem)), "\(problem)") }
        for problem in listening { Self.expectReadable(Self.english.text(.cannotListen(problem)), "\(problem)") }
        for reason in Forbidden.Reason.allCases { Self.expectReadable(Self.english.text(.forbidden(reason)), "\(reason)") }
    }
}
