import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// What a member does from the catalogue, a book's page and the search results: borrow one or
/// several books at once, join a waiting list, bookmark. Each answers with a redirect back and
/// a message: what was done, or the domain's refusal in words.
struct MemberActions: Sendable {
    let site: Site

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.post("/loans") { _, _ in try await borrow() }
        router.post("/holds") { _, _ in try await placeHold() }
        router.post("/bookmarks") { _, _ in try await bookmark() }
        router.post("/bookmarks/remove") { _, _ in try await removeBookmark() }
    }

    /// Where to go back to: the form's `back` when it is a page of this site.
    private func back(or fallback: String) -> String { Redirect.local(site.form["back"], or: fallback) }

    /// Runs `action`, then goes to `success` with its message, or back with the refusal.
    private func act(success: String, failure: String, _ action: () async throws -> String) async throws -> Response {
        _ = try site.visit.requireUser()
        do {
            return Redirect.see(success, flash: try await action())
        } catch is LoginRequired {
            throw LoginRequired()
        } catch {
            guard let text = Words.say(error: error), !(error is Unauthenticated) else { throw error }
            return Redirect.see(failure, flash: text, refused: true)
        }
    }

    func borrow() async throws -> Response {
        let ids = site.form.all("book")
        return try await act(success: "/loans", failure: back(or: "/books")) {
            guard !ids.isEmpty else { throw InvalidInput("book", .required) }
            let books = try ids.map { try BookID.parse($0) }
            let loans = try await site.library.circulation.borrow.execute(books, by: site.visit.principal)
            let titles = loans.map { t("web.titleInList", $0.bookTitle) }.joined(separator: ", ")
            return t("web.memberActions.borrowed", count: loans.count, Formats(Reader.language).number(loans.count), titles)
        }
    }

    func placeHold() async throws -> Response {
        let raw = site.form["book"] ?? ""
        return try await act(success: back(or: "/holds"), failure: back(or: "/books")) {
            let hold = try await site.library.circulation.holds.place.execute(try BookID.parse(raw), by: site.visit.principal)
            let joined = t("web.memberActions.joined", hold.bookTitle)
            return hold.position.map { joined + " " + t("web.memberActions.place", Formats(Reader.language).number($0)) } ?? joined
        }
    }

    func bookmark() async throws -> Response {
        let key = site.form["key"] ?? ""
        let book = site.form["book"]
        return try await act(success: back(or: "/bookmarks"), failure: back(or: "/search")) {
            if let book {
                _ = try await site.library.bookmarks.add(book: try BookID.parse(book), by: site.visit.principal)
            } else {
                _ = try await site.library.bookmarks.add(work: key, by: site.visit.principal)
            }
            return t("web.memberActions.bookmarked")
        }
    }

    func removeBookmark() async throws -> Response {
        let key = site.form["key"] ?? ""
        return try await act(success: back(or: "/bookmarks"), failure: back(or: "/bookmarks")) {
            try await site.library.bookmarks.remove(key, by: site.visit.principal)
            return t("web.memberActions.bookmarkRemoved")
        }
    }
}
