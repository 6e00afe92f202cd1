import Application
import Domain

extension Wording {
    /// What a command did or found.
    public func text(_ confirmation: Confirmation) -> String {
        switch confirmation {
        // The catalogue
        case .withdrawn(let count): t("confirm.withdrawn", count: count, n(count))
        case .kept(let reason): t("confirm.kept", text(reason))
        case .bookAdded(let book): t("confirm.bookAdded", name(book), "\(book.id)")
        case .bookImported(let book): t("confirm.bookImported", name(book), "\(book.id)")
        case .bookUpdated(let book): t("confirm.bookUpdated", name(book), "\(book.id)")
        // Accounts
        case .signedUp(let email, nil): t("confirm.signedUp", email)
        case .signedUp(let email, let actor?): t("confirm.signedUp.stillActing", email, acting(actor))
        case .loggedIn(let email): t("confirm.loggedIn", email)
        case .loggedOut: t("confirm.loggedOut")
        case .notLoggedIn: t("confirm.notLoggedIn")
        case .actingAs(.cliOperator): t("confirm.actingAs.operator", acting(.cliOperator))
        case .actingAs(let actor): t("confirm.actingAs", acting(actor))
        case .profileUpdated(let email): t("confirm.profileUpdated", email)
        case .confirmClosing(let name, let email): t("confirm.confirmClosing", name, email)
        case .accountClosed(let email): t("confirm.accountClosed", email)
        case .accountAdded(let email): t("confirm.accountAdded", email)
        case .roleChanged(let email, .librarian): t("confirm.roleChanged.librarian", email)
        case .roleChanged(let email, .member): t("confirm.roleChanged.member", email)
        case .lentAtDesk(let member, let card, let books):
            t("confirm.lentAtDesk", count: books, n(books), card.map { t("confirm.memberWithCard", member, $0) } ?? member)
        case .prolificKeyCreated(let key, let email): t("confirm.prolificKeyCreated", key, email)
        case .prolificKeyRevoked(false): t("confirm.prolificKeyRevoked")
        case .prolificKeyRevoked(true): t("confirm.prolificKeyRevoked.already")
        case .cardsIssued(0): t("confirm.cardsIssued.none")
        case .cardsIssued(let count): t("confirm.cardsIssued", count: count, n(count))
        case .libraryCard(let number): t("confirm.libraryCard", number)
        case .cardDrawn(let number, let file): t("confirm.cardDrawn", number, file)
        case .passwordChanged(0): t("confirm.passwordChanged")
        case .passwordChanged(let ended): t("confirm.passwordChanged.sessionsEnded", count: ended, n(ended))
        case .resetCodeIssued(let email, let code, let until): t("confirm.resetCodeIssued", email, code, formats.moment(until))
        case .passwordReset(let email): t("confirm.passwordReset", email)
        case .noCountryFound: t("confirm.noCountryFound")
        case .savedSessionRefused: t("confirm.savedSessionRefused")
        // Circulation, search, bookmarks
        case .noticesIssued(let count): t("confirm.noticesIssued", count: count, n(count))
        case .noticesRehearsed(let count, let moment): t("confirm.noticesRehearsed", count: count, formats.moment(moment), n(count))
        case .unreadNotices(let count): t("confirm.unreadNotices", count: count, n(count))
        case .noticeCount(let count): t("confirm.noticeCount", count: count, n(count))
        case .noticesMarkedRead: t("confirm.noticesMarkedRead")
        case .staleResults: t("confirm.staleResults")
        case .bookmarkRemoved: t("confirm.bookmarkRemoved")
        // Lists
        case .nothingListed(let listing): nothing(listing)
        case .nothingOnThisPage(let total): t("confirm.nothingOnThisPage", n(total))
        case .page(let first, let last, let total, let next, let walkable): page(first, last, total, next: next, walkable: walkable)
        // The log
        case .libraryCreated(let path): t("confirm.libraryCreated", path)
        case .schemaCurrent(let location, let applied):
            applied.isEmpty
                ? t("confirm.schemaCurrent", location) : t("confirm.schemaMigrated", location, applied.joined(separator: ", "))
        case .logCopied(let events, let from, let to, let keyFile):
            ([t("confirm.logCopied", t("message.events", count: Int(clamping: events), n(events)), from, to)]
                + (keyFile.map { [t("confirm.logCopied.key", $0)] } ?? [])).joined(separator: " ")
        case .readModelsRebuilt(let events): t("confirm.readModelsRebuilt", count: Int(clamping: events), n(events))
        case .replayed(let events, let file): t("confirm.replayed", count: Int(clamping: events), n(events), file)
        case .exported(let events): t("confirm.exported", count: Int(clamping: events), n(events))
        case .anchored(let position, let hash, nil, let file): t("confirm.anchored", "\(position)", String(hash.prefix(12)), file)
        case .anchored(let position, let hash, let at?, let file):
            t("confirm.anchored.at", "\(position)", String(hash.prefix(12)), file, formats.moment(at))
        case .logVerified(true): t("confirm.logVerified")
        case .logVerified(false): t("confirm.logVerified.not")
        case .asOf(let moment, let events): t("confirm.asOf", count: Int(clamping: events), formats.moment(moment), n(events))
        case .actor(let actor): name(actor)
        case .fieldChange(let change): text(change)
        case .backedUp(let report): backedUp(report)
        case .restored(let report): restored(report)
        }
    }

    /// Who the command line acts as, in a sentence: "Ada (ada@example.org), a member".
    func acting(_ actor: CommandLineActor) -> String {
        switch actor {
        case .member(let member, .librarian): t("confirm.acting.librarian", member.displayName, member.email)
        case .member(let member, .member): t("confirm.acting.member", member.displayName, member.email)
        case .cliOperator: t("confirm.acting.operator")
        }
    }

    private func nothing(_ listing: Listing) -> String {
        switch listing {
        case .books: t("confirm.nothingListed.books")
        case .loans: t("confirm.nothingListed.loans")
        case .accounts: t("confirm.nothingListed.accounts")
        case .bookmarks: t("confirm.nothingListed.bookmarks")
        case .works: t("confirm.nothingListed.works")
        case .holds: t("confirm.nothingListed.holds")
        }
    }

    /// "1-20 of 45 (next page: --offset 20, or --all)": the counts written for the reader, the
    /// offset as the option takes it.
    private func page(_ first: Int, _ last: Int, _ total: Int, next: Int?, walkable: Bool) -> String {
        guard let next else { return t("confirm.page", n(first), n(last), n(total)) }
        return walkable
            ? t("confirm.page.nextOrAll", n(first), n(last), n(total), "\(next)")
            : t("confirm.page.next", n(first), n(last), n(total), "\(next)")
    }
}
