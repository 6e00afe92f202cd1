import Application
import Domain
import Foundation

// The parts messages are made of: books, loans and lists as each language names them.
extension Wording {
    /// A book by its title in quotes (“Dune”, « Dune »), or by its id when the title is not known.
    func name(_ book: BookName) -> String { book.title.map(quoted) ?? t("message.book.numbered", "\(book.id)") }

    /// A title in the language's quotation marks: “Dune”, « Dune ».
    func quoted(_ title: String) -> String { t("message.book.quoted", title) }

    /// "a, b and c": the items, the last two joined by the language's "and".
    func listAnd(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return t("message.list.and", items.dropLast().joined(separator: ", "), last)
    }

    /// A title in quotes, or "a book" when it is not known.
    func title(_ title: String?) -> String { title.map(quoted) ?? t("message.book.unnamed") }

    /// Loans with their due days: “Dune” (due December 7, 2026) and “Emma” (due …).
    func dueList(_ books: [OverdueBook]) -> String {
        listAnd(books.map { t("message.book.due", title($0.title), formats.day($0.dueAt)) })
    }

    func loan(_ title: String?) -> String { title.map { t("message.loan.titled", $0) } ?? t("message.loan.untitled") }

    /// How many times: once, twice, 3 times.
    func times(_ count: Int) -> String {
        switch count {
        case 1: t("message.times.once")
        case 2: t("message.times.twice")
        default: t("message.times.many", n(count))
        }
    }

    /// One field error in a list of them: `title: is required`.
    func fieldError(_ error: FieldError) -> String { t("message.invalidInput.field", error.field, text(error.problem)) }

    func notFound(_ thing: NotFound.Thing, _ id: String) -> String {
        if id.isEmpty { return noSuch(thing) }
        let id100 = String(id.prefix(100))
        return switch thing {
        case .user where id.contains("@"): t("message.notFound.user.email", String(id.prefix(254)))
        case .card: t("message.notFound.card.id", String(id.prefix(40)))
        case .edition: t("message.notFound.edition.id", String(id.prefix(40)))
        case .book: t("message.notFound.book.id", id100)
        case .loan: t("message.notFound.loan.id", id100)
        case .user where UserID(id) != nil: t("message.notFound.user.id", id100)
        case .user where (try? Username(parsing: id)) != nil: t("message.notFound.user.username", id100)
        case .user: t("message.notFound.user.reference", id100)
        case .notice: t("message.notFound.notice.id", id100)
        case .hold: t("message.notFound.hold.id", id100)
        case .work: t("message.notFound.work.id", id100)
        case .stream: t("message.notFound.stream.id", id100)
        }
    }

    private func noSuch(_ thing: NotFound.Thing) -> String {
        switch thing {
        case .book: t("message.notFound.book")
        case .loan: t("message.notFound.loan")
        case .user: t("message.notFound.user")
        case .notice: t("message.notFound.notice")
        case .hold: t("message.notFound.hold")
        case .card: t("message.notFound.card")
        case .work: t("message.notFound.work")
        case .edition: t("message.notFound.edition")
        case .stream: t("message.notFound.stream")
        }
    }

    func badSetting(_ setting: String, _ value: String?, _ problem: FieldProblem) -> String {
        guard !setting.isEmpty else { return text(problem) }
        guard let value else { return t("message.badSetting", setting, text(problem)) }
        return t("message.badSetting.given", setting, text(problem), value)
    }

    func cannotListen(_ problem: ListenProblem, port: String = "--port", host: String = "--host") -> String {
        switch problem {
        case .bitbooks(let problem): cannotListen(problem, port: "--bitbooks-port", host: "--bitbooks-host")
        case .portInUse(let address, let number): t("message.cannotListen.portInUse", "\(number)", address, port)
        case .portNeedsPrivilege(let address, let number): t("message.cannotListen.portNeedsPrivilege", "\(number)", address, port)
        case .notAnAddressHere(let address): t("message.cannotListen.notAnAddressHere", address, host)
        case .unknownHost(let name): t("message.cannotListen.unknownHost", String(name.prefix(100)), host)
        }
    }
}
