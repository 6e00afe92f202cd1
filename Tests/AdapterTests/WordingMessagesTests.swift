import Application
import Domain
import Foundation
import Testing
import Wording

/// The messages in English and in French from the Wording target's strings: plural forms by each
/// language's rule (French says 0 and 1 in the singular), days and moments written for the
/// language, lists joined with the language's "and", titles in its quotation marks.
@Suite struct WordingMessagesTests {
    static let english = Wording(.english)
    static let french = Wording(.french)
    static let dune = BookName(BookID(UUID()), title: "Dune")
    /// 2026-12-07 14:05 UTC.
    static let moment = Date(timeIntervalSince1970: 1_796_652_300)
    static let nb = "\u{00A0}"

    @Test func pluralFormsFollowEachLanguage() {
        #expect(Self.english.text(.tooManyAttempts(retryAfterSeconds: 0)).hasSuffix("try again in 0 seconds"))
        #expect(Self.english.text(.tooManyAttempts(retryAfterSeconds: 1)).hasSuffix("try again in 1 second"))
        #expect(Self.english.text(.tooManyAttempts(retryAfterSeconds: 2)).hasSuffix("try again in 2 seconds"))
        #expect(Self.french.text(.tooManyAttempts(retryAfterSeconds: 0)).hasSuffix("réessayez dans 0 seconde"))
        #expect(Self.french.text(.tooManyAttempts(retryAfterSeconds: 1)).hasSuffix("réessayez dans 1 seconde"))
        #expect(Self.french.text(.tooManyAttempts(retryAfterSeconds: 2)).hasSuffix("réessayez dans 2 secondes"))
    }

    @Test func aSentenceChangesWithItsCountNotOnlyItsNoun() {
        #expect(
            Self.english.text(.copiesOnLoan(Self.dune, onLoan: 1))
                == "“Dune” has 1 copy on loan, so it cannot be withdrawn until it is returned")
        #expect(
            Self.english.text(.copiesOnLoan(Self.dune, onLoan: 2))
                == "“Dune” has 2 copies on loan, so it cannot be withdrawn until they are returned")
        #expect(
            Self.french.text(.copiesOnLoan(Self.dune, onLoan: 1))
                == "«\(Self.nb)Dune\(Self.nb)» a 1 exemplaire en prêt\(Self.nb): il ne peut pas être retiré du catalogue avant son retour")
        #expect(
            Self.french.text(.copiesOnLoan(Self.dune, onLoan: 2))
                == "«\(Self.nb)Dune\(Self.nb)» a 2 exemplaires en prêt\(Self.nb): il ne peut pas être retiré du catalogue avant leur retour"
        )
        #expect(Self.french.text(.noCopyAvailable(Self.dune, copies: 1)).hasSuffix("le seul exemplaire est en prêt"))
        #expect(Self.english.text(.renewalLimitReached(title: "Dune", max: 2)).contains("was renewed twice already"))
        #expect(Self.french.text(.renewalLimitReached(title: "Dune", max: 3)).contains("a déjà été prolongé 3 fois"))
    }

    @Test func daysAndMomentsAreWrittenForTheLanguage() {
        let overdue = Message.blockedByOverdue([OverdueBook(title: "Dune", dueAt: Self.moment)])
        #expect(Self.english.text(overdue) == "please return your overdue book first: “Dune” (due December 7, 2026)")
        #expect(
            Self.french.text(overdue)
                == "merci de rendre d'abord votre livre en retard\(Self.nb): «\(Self.nb)Dune\(Self.nb)» (à rendre le 7 décembre 2026)")
        #expect(Self.english.text(.loginThrottled(until: Self.moment)).hasSuffix("try again after December 7, 2026 at 14:05 UTC"))
        #expect(Self.french.text(.loginThrottled(until: Self.moment)).hasSuffix("réessayez après le 7 décembre 2026 à 14:05 UTC"))
    }

    @Test func listsAreJoinedWithTheLanguagesAnd() {
        let ada = MemberName(displayName: "Ada", email: "ada@example.org")
        let holds = Message.closingWithHolds(ada, titles: ["Dune", nil, "Emma"])
        #expect(
            Self.english.text(holds)
                == "the account of Ada (ada@example.org) stays open while they wait for “Dune”, a book and “Emma”: cancel the holds first"
                + ", then close it")
        #expect(
            Self.french.text(holds).contains("attend «\(Self.nb)Dune\(Self.nb)», un livre et «\(Self.nb)Emma\(Self.nb)»\(Self.nb): annulez")
        )
        #expect(Self.french.text(.closingWithHolds(ada, titles: ["Dune"])).contains("annulez d'abord la réservation"))
    }

    @Test func countsPeopleReadAreGroupedForTheLanguage() {
        #expect(Self.english.text(.request(.bodyTooLarge(max: 1_048_576))) == "the request body is larger than 1,048,576 bytes")
        let grouped = Formats(.french).number(1_048_576)
        #expect(grouped != "1048576" && Self.french.text(.request(.bodyTooLarge(max: 1_048_576))).contains("dépasse \(grouped) octets"))
    }

    @Test func englishReadsAsBefore() {
        let samples: [(Message, String)] = [
            (.notFound(.user, id: "ghost@example.org"), "there is no member with the email address 'ghost@example.org'"),
            (.notFound(.edition, id: ""), "there is no such Open Library edition"),
            (
                .noCopyAvailable(BookName(Self.dune.id, title: nil), copies: 2),
                "no copy of book \(Self.dune.id) is available: all 2 copies are on loan"
            ),
            (
                .othersWaiting(title: nil, count: 1),
                "this loan cannot be renewed: another member is waiting for the book; please return it by its due date"
            ),
            (
                .loanLimitReached(max: 5, active: 4, requested: 2),
                "you have 4 books on loan and may have at most 5, so you can borrow 1 more, not 2"
            ),
            (.copyOnShelf(Self.dune, available: 1), "a copy of “Dune” is on the shelf: borrow it"),
            (.alreadyHolding(Self.dune, position: nil), "a copy of “Dune” is already kept for you: borrow it"),
            (
                .cannotListen(.bitbooks(.portInUse(host: "::1", port: 8080))),
                "port 8080 is already in use on ::1; stop the other server or choose another port with --bitbooks-port"
            ),
            (
                .request(.malformedURL),
                "the address is not a valid URL: write characters other than ASCII letters and digits percent-encoded as UTF-8 (é as %C3%A9)"
            ),
            (
                .request(.methodNotAllowed(method: "PUT", path: "/api/v1/books", allowed: ["GET", "POST"])),
                "/api/v1/books does not answer PUT; it answers GET, POST"
            ),
            (.appRequest(.formMalformed), "the form body is malformed: send it url-encoded in UTF-8 (a % followed by two hex digits)"),
            (
                .appRequest(.noSuchRoute(path: "")),
                "there is nothing at the base URL itself under this key; the routes are books, books/N (N a book's number) and clean"
            ),
            (
                .backup(.keyUnusable("b.sqlite", .anchorNeedsKey)),
                "b.sqlite cannot be restored: cannot sign an anchor: the log has no chain key; nothing was restored"
            ),
            (.done(.fieldChange(FieldChange(field: "publisher", before: "Chilton", after: ""))), "publisher: Chilton → (empty)"),
            (.done(.actor(.member(name: "Ada Lovelace", email: "ada@example.org"))), "Ada Lovelace <ada@example.org>"),
        ]
        for (message, text) in samples { #expect(Self.english.text(message) == text) }
    }

    @Test func backupsAreReportedInTheLanguage() {
        let report = BackupReport(
            file: "b.sqlite", summary: LibrarySummary(events: 1234, headHash: "0a1b2c3d4e5f6789"), keyFile: nil, anchorFile: "b.anchors")
        #expect(
            Self.english.text(.done(.backedUp(report)))
                == "Backed up 1,234 events (head 0a1b2c3d4e5f…) to b.sqlite. Its anchors are in b.anchors.")
        #expect(Self.french.text(.done(.backedUp(report))).hasPrefix("Sauvegarde écrite dans b.sqlite\(Self.nb):"))
        #expect(Self.french.text(.done(.backedUp(report))).hasSuffix("Ses ancres sont dans b.anchors."))
    }
}
