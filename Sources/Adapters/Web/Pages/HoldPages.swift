import Application
import Domain
import Foundation
import Hummingbird

/// My holds: the place in line, a copy ready for pickup (highlighted, with Borrow), cancel.
struct HoldPages: Sendable {
    let site: Site

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/holds") { _, _ in try await holds() }
        router.post("/holds/{id}/cancel") { _, context in try await cancel(try context.parameters.require("id")) }
    }

    func holds() async throws -> Response {
        _ = try site.visit.requireUser()
        let holds = try await site.library.circulation.holds.list.mine(
            page: try PageRequest(limit: PageRequest.maxLimit), by: site.visit.principal)
        return site.pages.render("holds", HoldsView(holds: holds.items.map(MyHoldRow.init)), title: t("web.frame.myHolds"))
    }

    func cancel(_ raw: String) async throws -> Response {
        let id = try HoldID.parse(raw)
        return try await site.act(to: site.back(or: "/holds")) {
            let hold = try await site.library.circulation.holds.cancel.execute(id, by: site.visit.principal)
            // A librarian cancelling a member's hold did not leave a line (an outside walk read so).
            if !Authorization.isOwner(hold.member, site.visit.principal) {
                return t("web.holds.cancelledFor", hold.memberName, hold.bookTitle)
            }
            return t("web.holds.left", hold.bookTitle)
        }
    }
}

/// One hold as a row of My holds.
struct MyHoldRow: Sendable {
    let id: String
    let book: String
    let title: String
    let placed: String
    let ready: Bool
    /// "Ready for pickup until DATE", for a copy kept for the member.
    let pickup: String?
    let pickupISO: String?
    /// "Number 2 in line", while waiting.
    let place: String?
    /// What Cancel cancels, for screen readers ("hold on Dune").
    let cancelLabel: String

    init(_ hold: HoldSummary) {
        id = hold.id.description
        book = hold.book.description
        title = hold.bookTitle
        placed = Dates.day(hold.placedAt)
        ready = hold.status == .ready
        pickup = ready ? t("web.holds.readyUntil", hold.pickupUntil.map(Dates.day) ?? t("web.holds.furtherNotice")) : nil
        pickupISO = hold.pickupUntil.map(Dates.iso)
        place = hold.position.map { $0 == 1 ? t("web.holds.next") : t("web.holds.number", number($0)) }
        cancelLabel = t("web.holds.cancelLabel", hold.bookTitle)
    }
}

struct HoldsView: Sendable {
    let holds: [MyHoldRow]
    let isEmpty: Bool

    init(holds: [MyHoldRow]) {
        self.holds = holds
        isEmpty = holds.isEmpty
    }
}
