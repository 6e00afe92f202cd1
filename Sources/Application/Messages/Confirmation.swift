import Domain
import Foundation

/// What a command did or found, said back to the person who ran it: the command line's own
/// sentences around the tables. One case a sentence.
public enum Confirmation: Equatable, Sendable {
    // The catalogue
    /// Books left the catalogue.
    case withdrawn(count: Int)
    /// A book stayed when the catalogue was cleared, and why (the refusal's message names it).
    indirect case kept(because: Message)
    /// A book was added by hand.
    case bookAdded(BookName)
    /// A book was added from Open Library.
    case bookImported(BookName)
    /// A book's details or copies changed.
    case bookUpdated(BookName)

    // Accounts
    /// A member account was made: logged in as it (`stillActingAs` nil), or not, the command line
    /// still acting as before.
    case signedUp(email: String, stillActingAs: CommandLineActor?)
    /// A session was opened and saved.
    case loggedIn(email: String)
    /// The saved session was closed and forgotten.
    case loggedOut
    /// There was no saved session to close.
    case notLoggedIn
    /// Who the command line acts as, and how to switch.
    case actingAs(CommandLineActor)
    /// A member's profile changed.
    case profileUpdated(email: String)
    /// An account was made by a librarian or the operator.
    case accountAdded(email: String)
    /// An account's role changed.
    case roleChanged(email: String, to: Role)
    /// Asks before closing an account: whose, and that it cannot be undone (a prompt, answered on the same line).
    case confirmClosing(name: String, email: String)
    /// An account was closed and its personal data erased.
    case accountClosed(email: String)
    /// Books were lent at the desk to a member (by name), whose card (grouped) the desk may read back.
    case lentAtDesk(member: String, card: String?, books: Int)
    /// A Prolific key was made for a librarian: the key, shown once, and how the apps use it.
    case prolificKeyCreated(key: String, email: String)
    /// A Prolific key was revoked, or (`already`) had been revoked before.
    case prolificKeyRevoked(already: Bool)
    /// Library cards were issued to the accounts that had none.
    case cardsIssued(count: Int)
    /// The member's library card number (grouped as printed).
    case libraryCard(String)
    /// The card's barcode was drawn into a file.
    case cardDrawn(String, file: String)
    /// The member's password changed; their other sessions (`sessionsEnded`) were logged out.
    case passwordChanged(sessionsEnded: Int)
    /// A one-time reset code, shown this once, and until when it works.
    case resetCodeIssued(email: String, code: String, until: Date)
    /// A reset code set a new password; every session of the account was logged out.
    case passwordReset(email: String)
    /// No country could be told for an address.
    case noCountryFound
    /// The saved session is no longer valid (the refusal the command line tells instead of "log in first").
    case savedSessionRefused

    // Circulation, search, bookmarks
    /// A scan issued notices.
    case noticesIssued(count: Int)
    /// A scan at another moment than now only told what it would issue.
    case noticesRehearsed(count: Int, asOf: Date)
    /// How many of a member's notices are unread.
    case unreadNotices(count: Int)
    /// A member's notices as they were at a moment.
    case noticeCount(Int)
    /// Notices were marked read.
    case noticesMarkedRead
    /// Search results come from the cache because Open Library is unreachable.
    case staleResults
    /// A bookmark was removed.
    case bookmarkRemoved

    // Lists
    /// A list with nothing in it.
    case nothingListed(Listing)
    /// A page past the end of a list of `total` items.
    case nothingOnThisPage(total: Int)
    /// Where a page of a list stands: items `first` to `last` of `total`, the next page's offset,
    /// and whether `--all` may walk the rest.
    case page(first: Int, last: Int, total: Int, nextOffset: Int?, walkable: Bool)

    // The log
    /// A command created a new, empty library file (said once, on standard error).
    case libraryCreated(path: String)
    /// The read models were rebuilt from the log.
    case readModelsRebuilt(events: Int64)
    /// The log was replayed into another database file.
    case replayed(events: Int64, into: String)
    /// The log was exported to a file.
    case exported(events: Int64)
    /// A signed checkpoint of the log's head was appended to an anchor file.
    case anchored(position: Int64, hash: String, at: Date?, file: String)
    /// Whether every check of the log passed.
    case logVerified(Bool)
    /// A view of the library as it was at a moment, after so many events.
    case asOf(Date, events: Int64)
    /// Who did something, or whom a view names: "Ada Lovelace <ada@example.org>", "erased member".
    case actor(ActorName)
    /// One field an event set or changed: "publisher: Chilton → Harper".
    case fieldChange(FieldChange)
    /// A consistent copy of the library was written.
    case backedUp(BackupReport)
    /// A verified backup took the library's place.
    case restored(RestoreReport)
    /// The library's database schema is up to date; `applied` names the migrations applied now.
    case schemaCurrent(location: String, applied: [String])
    /// A library's log was copied into another database, which built its read models from it;
    /// the chain key, if the log has one, was written to `keyFile`.
    case logCopied(events: Int64, from: String, to: String, keyFile: String?)
}

/// Who the command line acts as: the member of its saved login, or the database's operator.
public enum CommandLineActor: Equatable, Sendable {
    case member(MemberName, Role)
    case cliOperator
}

/// The lists the command line shows.
public enum Listing: Equatable, Sendable, CaseIterable {
    case books, loans, accounts, bookmarks, works, holds
}
