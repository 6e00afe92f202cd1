import Application
import Domain
import Foundation
import Testing
import Wording

/// The command line's sentences (`Confirmation`) in English and in French: plurals by each
/// language's rule, dates and counts written for the reader, option names kept as typed.
@Suite struct WordingConfirmationsTests {
    static let english = Wording(.english)
    static let french = Wording(.french)
    static let nb = "\u{00A0}"
    /// 2026-12-07 14:05 UTC.
    static let moment = Date(timeIntervalSince1970: 1_796_652_300)
    static let dune = BookName(BookID(UUID()), title: "Dune")

    @Test func aSampleReadsTheSameInEnglishAsBefore() {
        let english = Self.english
        #expect(english.text(.bookAdded(Self.dune)) == "Added “Dune” (id \(Self.dune.id)).")
        #expect(
            english.text(.page(first: 1, last: 20, total: 45, nextOffset: 20, walkable: true))
                == "1-20 of 45 (next page: --offset 20, or --all)")
        #expect(
            english.text(.page(first: 1, last: 20, total: 45, nextOffset: 20, walkable: false)) == "1-20 of 45 (next page: --offset 20)")
        #expect(english.text(.page(first: 41, last: 45, total: 45, nextOffset: nil, walkable: false)) == "41-45 of 45")
        #expect(english.text(.nothingOnThisPage(total: 105)) == "Nothing on this page (105 in all).")
        #expect(english.text(.nothingListed(.holds)) == "No holds.")
        #expect(english.text(.roleChanged(email: "ada@example.org", to: .librarian)) == "ada@example.org is now a librarian.")
        #expect(english.text(.passwordChanged(sessionsEnded: 0)) == "Password changed.")
        #expect(english.text(.passwordChanged(sessionsEnded: 1)) == "Password changed. Your other session was logged out.")
        #expect(english.text(.passwordChanged(sessionsEnded: 3)) == "Password changed. Your 3 other sessions were logged out.")
        #expect(english.text(.lentAtDesk(member: "Ada", card: "27410 38514", books: 2)) == "Lent 2 books to Ada (card 27410 38514).")
        #expect(
            english.text(
                .signedUp(
                    email: "bob@example.org", stillActingAs: .member(MemberName(displayName: "Ada", email: "ada@example.org"), .librarian)))
                == "Signed up as bob@example.org. The CLI is still acting as Ada (ada@example.org), a librarian; use --login to switch to the new account."
        )
        #expect(english.text(.cardsIssued(count: 0)) == "Every account has a library card already.")
        #expect(english.text(.logVerified(false)) == "The log does NOT verify.")
    }

    @Test func datesAreWrittenForTheReader() {
        #expect(
            Self.english.text(.resetCodeIssued(email: "ada@example.org", code: "7K3M-Q9TD-X2FB", until: Self.moment))
                .hasPrefix(
                    "Reset code for ada@example.org: 7K3M-Q9TD-X2FB\nIt works once, until December 7, 2026 at 14:05 UTC, and is not shown again."
                ))
        #expect(Self.english.text(.asOf(Self.moment, events: 7)) == "As of December 7, 2026 at 14:05 UTC (7 events):")
        #expect(Self.french.text(.asOf(Self.moment, events: 7)) == "Au 7 décembre 2026 à 14:05 UTC (7 événements)\(Self.nb):")
        #expect(
            Self.french.text(.resetCodeIssued(email: "ada@example.org", code: "7K3M-Q9TD-X2FB", until: Self.moment))
                .contains("jusqu'au 7 décembre 2026 à 14:05 UTC"))
        #expect(
            Self.french.text(.anchored(position: 4, hash: String(repeating: "ab", count: 32), at: Self.moment, file: "a"))
                == "Position 4 ancrée (empreinte abababababab…) le 7 décembre 2026 à 14:05 UTC dans a.")
    }

    /// French takes the singular for 0 and 1, English for 1 only.
    @Test func pluralsFollowEachLanguagesRule() {
        #expect(
            [0, 1, 2].map { Self.english.text(.withdrawn(count: $0)) } == ["Withdrew 0 books.", "Withdrew 1 book.", "Withdrew 2 books."])
        #expect(
            [0, 1, 2].map { Self.french.text(.withdrawn(count: $0)) }
                == ["0 livre retiré du catalogue.", "1 livre retiré du catalogue.", "2 livres retirés du catalogue."])
        #expect([0, 1, 2].map { Self.french.text(.unreadNotices(count: $0)) } == ["0 non lu.", "1 non lu.", "2 non lus."])
        #expect(
            [1, 2].map { Self.french.text(.passwordChanged(sessionsEnded: $0)) }
                == [
                    "Mot de passe modifié. Votre autre session a été fermée.",
                    "Mot de passe modifié. Vos 2 autres sessions ont été fermées.",
                ])
        #expect(Self.french.text(.lentAtDesk(member: "Ada", card: nil, books: 1)) == "1 livre prêté à Ada.")
    }

    /// The counts are French ("1 234"); the offset stays as `--offset` takes it, and so do the option names.
    @Test func aFrenchPageFooterHasFrenchNumbersAndTheOptionsAsTyped() {
        #expect(
            Self.french.text(.page(first: 1_001, last: 1_020, total: 1_234, nextOffset: 1_020, walkable: true))
                == "1\u{202F}001-1\u{202F}020 sur 1\u{202F}234 (page suivante\(Self.nb): --offset 1020, ou --all)")
        #expect(
            Self.french.text(.page(first: 1, last: 20, total: 45, nextOffset: 20, walkable: false))
                == "1-20 sur 45 (page suivante\(Self.nb): --offset 20)")
        #expect(Self.french.text(.nothingOnThisPage(total: 1_234)) == "Rien sur cette page (1\u{202F}234 en tout).")
        #expect(
            Self.english.text(.page(first: 1_001, last: 1_020, total: 1_234, nextOffset: 1_020, walkable: true))
                == "1,001-1,020 of 1,234 (next page: --offset 1020, or --all)")
    }

    @Test func emptyListsAndAccountsInFrench() {
        #expect(
            Listing.allCases.map { Self.french.text(.nothingListed($0)) } == [
                "Aucun livre.", "Aucun prêt.", "Aucun compte.", "Aucun favori.", "Aucun résultat.", "Aucune réservation.",
            ])
        #expect(Self.french.text(.roleChanged(email: "ada@example.org", to: .member)) == "ada@example.org est maintenant membre.")
        #expect(
            Self.french.text(.confirmClosing(name: "Ada", email: "ada@example.org"))
                == "Fermer le compte Ada (ada@example.org) et effacer définitivement ses données personnelles\(Self.nb)? Tapez oui pour confirmer\(Self.nb): "
        )
        #expect(
            Self.french.text(.bookAdded(Self.dune)) == "Ajouté au catalogue\(Self.nb): «\(Self.nb)Dune\(Self.nb)» (id \(Self.dune.id)).")
    }
}
