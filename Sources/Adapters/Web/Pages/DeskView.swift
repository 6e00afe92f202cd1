import Application
import Domain
import Foundation
import Wording

/// The front desk page.
struct DeskView: Sendable {
    /// Which of the desk's forms a refusal belongs to.
    enum FormName: Sendable { case lend, reset }

    /// A book on the shelf, to tick in the lend form.
    struct ShelfBook: Sendable {
        let id: String
        let title: String
        let authors: String
        let available: Int
        /// "(2 on the shelf)".
        let onShelf: String
        let chosen: Bool

        init(_ entry: CatalogueEntry, chosen: Bool) {
            id = entry.id.description
            title = entry.details.title
            authors = entry.details.authors.joined(separator: ", ")
            available = entry.available
            onShelf = t("web.desk.onShelf", count: entry.available, Formats(Reader.language).number(entry.available))
            self.chosen = chosen
        }
    }

    /// A book's waiting list.
    struct WaitingList: Sendable {
        let id: String
        let title: String
        let holds: [HoldRow]
        let empty: Bool

        init(id: String, title: String, holds: [HoldRow]) {
            self.id = id
            self.title = title
            self.holds = holds
            empty = holds.isEmpty
        }
    }

    let feedback: Feedback
    let lendErrors: Bool
    let resetErrors: Bool
    let resetCode: ResetCodeView?
    let find: String
    let memberFilter: String
    /// Where the page's return buttons send the librarian back (`DeskQuery.path`).
    let back: String
    let shelf: [ShelfBook]
    let shelfEmpty: Bool
    let loans: [LoanRow]
    let loansEmpty: Bool
    let loansPager: Pager
    let overdue: [LoanRow]
    let overdueEmpty: Bool
    let setAside: [HoldRow]
    let setAsideEmpty: Bool
    var waiting: WaitingList?
    /// Why the member asked for in the loans' filter names nobody.
    var filterError: String?
    /// What is wrong with the words typed to find a book on the shelf, said beside them.
    var findError: String?

    init(
        feedback: Feedback, errorsIn form: FormName?, resetCode: ResetCodeView?, query: DeskQuery, shelf: [ShelfBook], loans: [LoanRow],
        loansPager: Pager, overdue: [LoanRow], setAside: [HoldRow]
    ) {
        self.feedback = feedback
        lendErrors = form == .lend && feedback.hasErrors
        resetErrors = form == .reset && feedback.hasErrors
        self.resetCode = resetCode
        find = query.find ?? ""
        memberFilter = query.member ?? ""
        back = query.path
        self.shelf = shelf
        shelfEmpty = shelf.isEmpty
        self.loans = loans
        loansEmpty = loans.isEmpty
        self.loansPager = loansPager
        self.overdue = overdue
        overdueEmpty = overdue.isEmpty
        self.setAside = setAside
        setAsideEmpty = setAside.isEmpty
    }
}

/// An active loan in a desk list.
struct LoanRow: Sendable {
    let id: String
    let bookID: String
    let bookTitle: String
    let borrower: String
    let walkIn: Bool
    let lent: String
    let due: String
    let dueISO: String
    let overdue: Bool

    init(_ loan: LoanSummary, overdue: Bool) {
        id = loan.id.description
        bookID = loan.book.description
        bookTitle = loan.bookTitle
        borrower = Words.catalogue.borrower(of: loan)
        walkIn = loan.borrower == nil
        let formats = Formats(Reader.language)
        lent = formats.day(loan.lentAt)
        due = formats.day(loan.dueAt)
        dueISO = Dates.iso(loan.dueAt)
        self.overdue = overdue
    }
}

/// A hold in a desk list: in line, or ready with a copy kept until a date.
struct HoldRow: Sendable {
    let id: String
    let bookID: String
    let bookTitle: String
    let member: String
    /// The member's account id: the desk lends a copy set aside to them by it.
    let memberID: String
    let placed: String
    let position: String?
    let pickupUntil: String?
    /// "Waiting", or "Copy kept until November 22, 2026".
    let state: String

    init(_ hold: HoldSummary) {
        id = hold.id.description
        bookID = hold.book.description
        bookTitle = hold.bookTitle
        member = Words.catalogue.member(of: hold)
        memberID = hold.member.description
        let formats = Formats(Reader.language)
        placed = formats.day(hold.placedAt)
        position = hold.status == .waiting ? hold.position.map { formats.number($0) } : nil
        pickupUntil = hold.status == .ready ? hold.pickupUntil.map(formats.day) : nil
        state = pickupUntil.map { t("web.desk.copyKeptUntil", $0) } ?? t("web.desk.waiting")
    }
}

/// A password reset code just issued: shown on this page only, never again.
struct ResetCodeView: Sendable {
    let email: String
    let name: String
    let code: String
    /// "Reset code for Ada".
    let heading: String
    /// "Give this code to Ada (ada@example.org):".
    let give: String
    /// "It works once, until …, and is not shown again."
    let once: String

    init(email: String, name: String, code: String, until: String) {
        self.email = email
        self.name = name
        self.code = code
        heading = t("web.desk.resetCode.heading", name)
        give = t("web.desk.resetCode.give", name, email)
        once = t("web.desk.resetCode.once", until)
    }
}
