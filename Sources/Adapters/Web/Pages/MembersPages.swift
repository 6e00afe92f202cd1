import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// The library's accounts, a page at a time, with promote and demote (the last librarian stays one).
struct MembersPages: Sendable {
    let site: Site
    static let pageSize = 50

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/members") { request, _ in
            try await members(offset: Form.query(of: request).offset)
        }
        router.post("/members/{id}/role") { _, context in try await changeRole(try context.parameters.require("id")) }
    }

    func members(offset: Int) async throws -> Response {
        let page = try await site.library.accounts.listUsers.execute(
            page: try PageRequest(limit: Self.pageSize, offset: offset), by: site.visit.principal)
        let me = try? site.visit.requireUser().0
        let view = MembersView(
            members: page.items.map { MemberRow($0, isMe: $0.id == me) }, total: page.total,
            pager: Pager(page, path: "/members", keeping: [:]))
        return site.pages.render("members", view, title: t("web.members.heading"))
    }

    func changeRole(_ rawID: String) async throws -> Response {
        try Authorization.require(.changeRole, by: site.visit.principal)
        let back = Redirect.local(site.form["back"], or: "/members")
        do {
            guard let id = UserID(rawID) else { throw NotFound(.user, rawID) }
            let role: Role
            switch site.form["role"] {
            case "librarian": role = .librarian
            case "member": role = .member
            default: throw InvalidInput("role", .notOneOf(["librarian", "member"]))
            }
            let account = try await site.library.accounts.changeRole.execute(id, to: role, by: site.visit.principal)
            return Redirect.see(
                back, flash: Words.catalogue.text(Confirmation.roleChanged(email: account.email.description, to: account.role)))
        } catch {
            guard let text = Words.say(error: error), !(error is Forbidden) else { throw error }
            return Redirect.see(back, flash: text, refused: true)
        }
    }
}

/// The members page.
struct MembersView: Sendable {
    let members: [MemberRow]
    /// How many accounts there are, as the page says it ("12 accounts").
    let count: String
    let pager: Pager

    init(members: [MemberRow], total: Int, pager: Pager) {
        self.members = members
        count = t("web.members.count", count: total, Formats(Reader.language).number(total))
        self.pager = pager
    }
}

/// One account in the members list.
struct MemberRow: Sendable {
    let id: String
    let name: String
    let email: String
    let card: String?
    let librarian: Bool
    let role: String
    /// What the role button asks before it changes the role.
    let confirm: String
    let since: String
    let isMe: Bool

    init(_ account: AccountSummary, isMe: Bool) {
        id = account.id.description
        name = account.displayName
        email = account.email.description
        card = account.cardNumber?.grouped
        librarian = account.role == .librarian
        role = librarian ? t("web.members.librarian") : t("web.members.member")
        confirm = librarian ? t("web.members.confirmDemote", name) : t("web.members.confirmPromote", name)
        since = Formats(Reader.language).day(account.registeredAt)
        self.isMe = isMe
    }
}
