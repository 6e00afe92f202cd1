import Domain
import Foundation

extension English {
    /// What a command did or found.
    public func text(_ confirmation: Confirmation) -> String {
        switch confirmation {
        case .withdrawn(let count): "Withdrew \(count == 1 ? "1 book" : "\(count) books")."
        case .kept(let reason): "Not withdrawn: \(text(reason))."
        case .bookAdded(let book): "Added \(name(book)) (id \(book.id))."
        case .bookImported(let book): "Imported \(name(book)) from Open Library (id \(book.id))."
        case .bookUpdated(let book): "Updated \(name(book)) (id \(book.id))."
        case .signedUp(let email, nil): "Signed up and logged in as \(email)."
        case .signedUp(let email, let actor?):
            "Signed up as \(email). The CLI is still acting as \(acting(actor)); use --login to switch to the new account."
        case .loggedIn(let email): "Logged in as \(email)."
        case .loggedOut: "Logged out."
        case .notLoggedIn: "Not logged in."
        case .actingAs(.cliOperator):
            "The CLI is acting as \(acting(.cliOperator)): it may do anything in this database."
                + " To act as a member or librarian: shelfmark login --email ADDRESS"
        case .actingAs(let actor):
            "The CLI is acting as \(acting(actor)). To switch: shelfmark logout (to act as the operator),"
                + " or shelfmark login --email ADDRESS"
        case .profileUpdated(let email): "Updated the account of \(email)."
        case .confirmClosing(let name, let email):
            "Close the account of \(name) (\(email)) and erase its personal data for good? Type yes to confirm: "
        case .accountClosed(let email):
            "Closed the account of \(email): its personal data is erased, and the address may register again."
        case .accountAdded(let email): "Added \(email)."
        case .roleChanged(let email, let role): "\(email) is now a \(role == .librarian ? "librarian" : "member")."
        case .lentAtDesk(let member, let card, let books):
            "Lent \(books == 1 ? "1 book" : "\(books) books") to \(member)\(card.map { " (card \($0))" } ?? "")."
        case .prolificKeyCreated(let key, let email):
            "\(key)\nThe Prolific apps' base URL is /\(key)/ on the address `shelfmark serve` listens on"
                + " (http://HOST:PORT/\(key)/); they act as \(email)."
        case .prolificKeyRevoked(false): "Revoked: the apps using this key get 404 from now on."
        case .prolificKeyRevoked(true): "That key was revoked already: the apps using it get 404."
        case .cardsIssued(0): "Every account has a library card already."
        case .cardsIssued(let count): "Issued \(count == 1 ? "1 library card" : "\(count) library cards")."
        case .libraryCard(let number): "Your library card: \(number). Show it at the desk, or draw its barcode with --svg FILE."
        case .cardDrawn(let number, let file): "Drew library card \(number) in \(file)."
        case .passwordChanged(let ended):
            "Password changed."
                + (ended == 0 ? "" : " Your \(ended == 1 ? "other session was" : "\(ended) other sessions were") logged out.")
        case .resetCodeIssued(let email, let code, let until):
            "Reset code for \(email): \(code)\nIt works once, until \(Self.time(until)), and is not shown again. The member sets a new"
                + " password with: shelfmark password reset --email \(email) --code \(code)"
        case .passwordReset(let email):
            "Password changed for \(email), and every session of the account logged out. Log in with the new password:"
                + " shelfmark login --email \(email)"
        case .noCountryFound: "No country could be told for this address."
        case .savedSessionRefused:
            "the saved session has expired or was logged out: log in again, or run `shelfmark logout` to act as the database's operator"
        case .noticesIssued(let count): "Issued \(count == 1 ? "1 notice" : "\(count) notices")."
        case .noticesRehearsed(let count, let moment):
            "A rehearsal as of \(Self.time(moment)): a scan then would issue \(count == 1 ? "1 notice" : "\(count) notices");"
                + " none was issued (only the clock decides what is issued)."
        case .unreadNotices(let count): "\(count) unread."
        case .noticeCount(let count): "\(count == 1 ? "1 notice" : "\(count) notices")."
        case .noticesMarkedRead: "Marked read."
        case .staleResults: "(Open Library is unreachable: these results come from the cache)"
        case .bookmarkRemoved: "Removed."
        case .nothingListed(let listing): nothing(listing)
        case .nothingOnThisPage(let total): "Nothing on this page (\(total) in all)."
        case .page(let first, let last, let total, let next, let walkable):
            "\(first)-\(last) of \(total)" + (next.map { " (next page: --offset \($0)\(walkable ? ", or --all" : ""))" } ?? "")
        case .libraryCreated(let path): "Created a new library at \(path)."
        case .readModelsRebuilt(let events): "Rebuilt the read models from \(events) events."
        case .replayed(let events, let file): "Replayed \(events) events into \(file)."
        case .exported(let events): "Exported \(events) events."
        case .anchored(let position, let hash, let at, let file):
            "Anchored position \(position) (hash \(hash.prefix(12))…)\(at.map { " at \(Self.time($0))" } ?? "") in \(file)."
        case .logVerified(let passed): passed ? "The log verifies." : "The log does NOT verify."
        case .asOf(let moment, let events): "As of \(Self.time(moment)) (\(events) events):"
        case .actor(let actor): name(actor)
        case .fieldChange(let change): text(change)
        case .backedUp(let report): backedUp(report)
        case .restored(let report): restored(report)
        }
    }

    /// Who the command line acts as, in a sentence: "Ada (ada@example.org), a member".
    func acting(_ actor: CommandLineActor) -> String {
        switch actor {
        case .member(let member, let role): "\(member.displayName) (\(member.email)), a \(role == .librarian ? "librarian" : "member")"
        case .cliOperator: "the operator (no login)"
        }
    }

    private func nothing(_ listing: Listing) -> String {
        switch listing {
        case .books: "No books."
        case .loans: "No loans."
        case .accounts: "No accounts."
        case .bookmarks: "No bookmarks."
        case .works: "Nothing found."
        case .holds: "No holds."
        }
    }
}
