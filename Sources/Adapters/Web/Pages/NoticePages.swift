import Application
import Domain
import Foundation
import Hummingbird

/// Notices: newest first, the unread ones marked; mark one read, or all.
struct NoticePages: Sendable {
    let site: Site
    static let pageSize = 50

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/notices") { request, _ in try await notices(request) }
        router.post("/notices/read-all") { _, _ in try await markRead(nil) }
        router.post("/notices/{id}/read") { _, context in try await markRead(try PathID.decode("id", context)) }
    }

    func notices(_ request: Request) async throws -> Response {
        _ = try site.visit.requireUser()
        let offset = Form.query(of: request).offset
        let answer = try await site.library.circulation.notices.list(
            page: try PageRequest(limit: Self.pageSize, offset: offset), by: site.visit.principal)
        let view = NoticesView(
            notices: answer.items.map(NoticeRow.init), unread: answer.unread, pager: Pager(answer.page, path: "/notices", keeping: [:]))
        return site.pages.render("notices", view, title: t("web.frame.notices"))
    }

    func markRead(_ id: String?) async throws -> Response {
        try await site.act(to: site.back(or: "/notices")) {
            try await site.library.circulation.notices.markRead(id, by: site.visit.principal)
            return id == nil ? t("web.notices.allRead") : Words.say(.noticesMarkedRead)
        }
    }
}

/// One notice as the list shows it.
struct NoticeRow: Sendable {
    let id: String
    /// The id as one segment of the path that marks it read.
    let path: String
    let text: String
    let issued: String
    let issuedISO: String
    let unread: Bool

    init(_ notice: NoticeSummary) {
        id = notice.id
        path = PathID.encode(notice.id)
        text = Self.text(notice)
        issued = Dates.moment(notice.issuedAt)
        issuedISO = Dates.iso(notice.issuedAt)
        unread = !notice.read
    }

    /// What the notice tells the member.
    static func text(_ notice: NoticeSummary) -> String {
        let day = Dates.day(notice.dueAt)
        switch notice.kind {
        case .dueSoon: return t("web.notices.dueSoon", notice.bookTitle, day)
        case .overdue: return t("web.notices.overdue", notice.bookTitle, day)
        case .readyForPickup: return t("web.notices.readyForPickup", notice.bookTitle, day)
        case .holdCancelled: return t("web.notices.holdCancelled", notice.bookTitle)
        case .holdCancelledAtDesk: return t("web.notices.holdCancelledAtDesk", notice.bookTitle)
        case .holdExpired: return t("web.notices.holdExpired", notice.bookTitle)
        }
    }
}

struct NoticesView: Sendable {
    let notices: [NoticeRow]
    let unread: Int
    /// "2 unread".
    let unreadText: String
    let hasUnread: Bool
    let isEmpty: Bool
    let pager: Pager
    /// Whether there is another page to link to (no empty navigation otherwise).
    let paged: Bool

    init(notices: [NoticeRow], unread: Int, pager: Pager) {
        self.notices = notices
        self.unread = unread
        unreadText = t("web.frame.unread", count: unread, number(unread))
        hasUnread = unread > 0
        isEmpty = notices.isEmpty
        self.pager = pager
        paged = pager.previous != nil || pager.next != nil
    }
}
