import Application
import Domain
import Foundation
import Testing
import Wording

/// The command line's own sentences (`Confirmation`) have English words, without type names,
/// for every case: `covered(_:)` switches over them with no default, so a new case does not
/// compile until it has a sample here.
@Suite("Message catalogue: the command line's sentences")
struct ConfirmationTests {
    static let dune = BookName(BookID(UUID()), title: "Dune")

    static let catalogue: [Application.Confirmation] = [
        .withdrawn(count: 1), .withdrawn(count: 3), .kept(because: .copiesOnLoan(dune, onLoan: 1)), .bookAdded(dune),
        .bookImported(dune), .bookUpdated(dune),
    ]
    static let accounts: [Application.Confirmation] = [
        .signedUp(email: "ada@example.org", stillActingAs: nil),
        .signedUp(email: "bob@example.org", stillActingAs: .member(MemberName(displayName: "Ada", email: "ada@example.org"), .librarian)),
        .signedUp(email: "bob@example.org", stillActingAs: .cliOperator), .loggedIn(email: "ada@example.org"), .loggedOut, .notLoggedIn,
        .actingAs(.cliOperator), .actingAs(.member(MemberName(displayName: "Ada", email: "ada@example.org"), .member)),
        .profileUpdated(email: "ada@example.org"), .confirmClosing(name: "Ada", email: "ada@example.org"),
        .accountClosed(email: "ada@example.org"),
        .accountAdded(email: "ada@example.org"), .roleChanged(email: "ada@example.org", to: .librarian), .noCountryFound,
        .savedSessionRefused, .passwordChanged(sessionsEnded: 0), .passwordChanged(sessionsEnded: 1), .passwordChanged(sessionsEnded: 3),
        .resetCodeIssued(email: "ada@example.org", code: "7K3M-Q9TD-X2FB", until: moment), .passwordReset(email: "ada@example.org"),
        .lentAtDesk(member: "Ada Lovelace", card: "27410 38514", books: 2), .lentAtDesk(member: "Ada", card: nil, books: 1),
        .cardsIssued(count: 0), .cardsIssued(count: 3), .libraryCard("27410 38514"), .cardDrawn("27410 38514", file: "card.svg"),
        .prolificKeyCreated(key: "0123456789abcdef01234567", email: "ada@example.org"), .prolificKeyRevoked(already: false),
        .prolificKeyRevoked(already: true),
    ]
    static let circulation: [Application.Confirmation] = [
        .noticesIssued(count: 1), .noticesIssued(count: 0), .noticesRehearsed(count: 2, asOf: moment), .unreadNotices(count: 2),
        .noticeCount(1), .noticesMarkedRead, .staleResults, .bookmarkRemoved,
    ]
    static let lists: [Application.Confirmation] =
        [
            .nothingOnThisPage(total: 105), .page(first: 1, last: 20, total: 45, nextOffset: 20, walkable: true),
            .page(first: 41, last: 45, total: 45, nextOffset: nil, walkable: false),
        ] + Listing.allCases.map { .nothingListed($0) }
    static let log: [Application.Confirmation] = [
        .libraryCreated(path: "/srv/library.sqlite"),
        .schemaCurrent(location: "postgres://shelfmark@db.example.org:5432/library", applied: []),
        .schemaCurrent(location: "/srv/library.sqlite", applied: ["v1-events", "catalogue-v1"]),
        .logCopied(events: 1_234, from: "/srv/library.sqlite", to: "postgres://shelfmark@db/library", keyFile: "/srv/library.key"),
        .logCopied(events: 1, from: "/srv/library.sqlite", to: "postgres://shelfmark@db/library", keyFile: nil),
        .readModelsRebuilt(events: 12), .replayed(events: 3, into: "past.sqlite"), .exported(events: 3),
        .anchored(position: 4, hash: String(repeating: "ab", count: 32), at: moment, file: "a"), .logVerified(true),
        .logVerified(false), .asOf(moment, events: 7), .actor(.member(name: "Ada Lovelace", email: "ada@example.org")),
        .actor(.erasedMember), .actor(.unknownMember), .actor(.cliOperator), .actor(.system), .actor(.anonymous),
        .fieldChange(FieldChange(field: "publisher", before: "Chilton", after: "Harper")),
        .fieldChange(FieldChange(field: "title", after: "Dune")),
        .fieldChange(FieldChange(field: "publisher", before: "Chilton", after: nil)),
    ]
    static let backups: [Application.Confirmation] = [
        .backedUp(
            BackupReport(
                file: "/backups/b.sqlite", summary: LibrarySummary(events: 1234, headHash: String(repeating: "ab", count: 32)),
                keyFile: "/backups/b.sqlite.key", anchorFile: "/backups/b.sqlite.anchors")),
        .backedUp(BackupReport(file: "b.sqlite", summary: LibrarySummary(events: 0, headHash: nil), keyFile: nil, anchorFile: nil)),
        .restored(
            RestoreReport(
                backup: "b.sqlite", target: "library.sqlite", restored: LibrarySummary(events: 1, headHash: "cd"),
                replaced: ReplacedLibrary(
                    keptAs: "library.sqlite.replaced-20260101-120000Z", summary: LibrarySummary(events: 9, headHash: "ef")))),
        .restored(
            RestoreReport(
                backup: "b.sqlite", target: "library.sqlite", restored: LibrarySummary(events: 1, headHash: "cd"),
                replaced: ReplacedLibrary(keptAs: "library.sqlite.replaced-20260101-120000Z", summary: nil))),
        .restored(
            RestoreReport(backup: "b.sqlite", target: "new.sqlite", restored: LibrarySummary(events: 2, headHash: "cd"), replaced: nil)),
    ]
    static let moment = Date(timeIntervalSince1970: 1_796_652_300)
    static var samples: [Application.Confirmation] { catalogue + accounts + circulation + lists + log + backups }

    /// The case a sample stands for, by name; no default, so every case needs a sample.
    static func covered(_ confirmation: Application.Confirmation) -> String {
        switch confirmation {
        case .withdrawn: "withdrawn"
        case .kept: "kept"
        case .bookAdded: "bookAdded"
        case .bookImported: "bookImported"
        case .bookUpdated: "bookUpdated"
        case .prolificKeyCreated: "prolificKeyCreated"
        case .prolificKeyRevoked: "prolificKeyRevoked"
        case .signedUp: "signedUp"
        case .loggedIn: "loggedIn"
        case .loggedOut: "loggedOut"
        case .notLoggedIn: "notLoggedIn"
        case .actingAs: "actingAs"
        case .profileUpdated: "profileUpdated"
        case .accountAdded: "accountAdded"
        case .roleChanged: "roleChanged"
        case .confirmClosing: "confirmClosing"
        case .accountClosed: "accountClosed"
        case .lentAtDesk: "lentAtDesk"
        case .cardsIssued: "cardsIssued"
        case .libraryCard: "libraryCard"
        case .cardDrawn: "cardDrawn"
        case .passwordChanged: "passwordChanged"
        case .resetCodeIssued: "resetCodeIssued"
        case .passwordReset: "passwordReset"
        case .noCountryFound: "noCountryFound"
        case .savedSessionRefused: "savedSessionRefused"
        case .noticesIssued: "noticesIssued"
        case .noticesRehearsed: "noticesRehearsed"
        case .noticesRehearsed: "noticesRehearsed"
        case .unreadNotices: "unreadNotices"
        case .noticeCount: "noticeCount"
        case .noticesMarkedRead: "noticesMarkedRead"
        case .staleResults: "staleResults"
        case .bookmarkRemoved: "bookmarkRemoved"
        case .nothingListed: "nothingListed"
        case .nothingOnThisPage: "nothingOnThisPage"
        case .page: "page"
        case .libraryCreated: "libraryCreated"
        case .schemaCurrent: "schemaCurrent"
        case .logCopied: "logCopied"
        case .readModelsRebuilt: "readModelsRebuilt"
        case .replayed: "replayed"
        case .exported: "exported"
        case .anchored: "anchored"
        case .logVerified: "logVerified"
        case .asOf: "asOf"
        case .backedUp: "backedUp"
        case .restored: "restored"
        case .actor: "actor"
        case .fieldChange: "fieldChange"
        }
    }

    @Test func everySentenceReads() {
        #expect(Set(Self.samples.map(Self.covered)).count == 49, "a case without a sample")
        for sample in Self.samples { MessageCatalogueTests.expectReadable(Wording.english.text(.done(sample)), "\(sample)") }
    }

    @Test func sentencesNameBooksByTitleAndPagesAsTheCommandsTakeThem() {
        let english = Wording.english
        #expect(english.text(.bookAdded(Self.dune)) == "Added “Dune” (id \(Self.dune.id)).")
        #expect(english.text(.kept(because: .copiesOnLoan(Self.dune, onLoan: 1))).hasPrefix("Not withdrawn: “Dune” has 1 copy on loan"))
        #expect(
            english.text(.page(first: 1, last: 20, total: 45, nextOffset: 20, walkable: true))
                == "1-20 of 45 (next page: --offset 20, or --all)")
        #expect(
            english.text(.page(first: 1, last: 20, total: 45, nextOffset: 20, walkable: false)) == "1-20 of 45 (next page: --offset 20)")
        #expect(english.text(.withdrawn(count: 1)) == "Withdrew 1 book.")
    }
}
