import Application
import Domain

extension BitBooksSession {
    /// `LOAN USERNAME ISBN...`: the books borrowed all together through the borrow use case, or
    /// its refusal in the protocol's words. An ISBN the catalogue lacks is its "Unknown book".
    func loan(_ username: String, _ isbns: [String]) async throws -> String {
        let principal = try await principal(as: username)
        // A copy kept for this member is theirs to take, whichever record of a duplicate ISBN holds it.
        let kept = Set(
            try await Page.all { try await library.circulation.holds.list.mine(page: $0, by: principal) }.filter { $0.status == .ready }
                .map(\.book))
        var books: [BookID] = []
        for isbn in isbns {
            guard let entry = try await entry(isbn: isbn, keptFor: kept) else { return Answer.noCopies(Answer.unknownBookName) }
            books.append(entry.id)
        }
        do {
            _ = try await library.circulation.borrow.execute(books, by: principal)
            return Answer.loanConfirmed
        } catch {
            guard let answer = LoanAnswers.of(error) else { throw error }
            return answer
        }
    }

    /// `GET_LOANS USERNAME`: the logged-in member's active loans.
    func loans(_ username: String) async throws -> String {
        let principal = try await principal(as: username)
        let loans = try await Page.all { try await library.circulation.list.mine(page: $0, by: principal) }
        var answer: [LoanJSON] = []
        for loan in loans where loan.returnedAt == nil {
            let book = await details(loan.book, by: principal)
            answer.append(
                LoanJSON(
                    username: username, isbn: book?.isbn?.isbn13 ?? "", loanDate: ProtocolJSON.day(loan.lentAt),
                    returnDate: ProtocolJSON.day(loan.dueAt), title: loan.bookTitle, cover: book?.coverURL ?? ""))
        }
        return try ProtocolJSON.encode(answer)
    }

    /// `CHECK_NOTIFICATIONS USERNAME`: the logged-in member's unread loan notices (due soon,
    /// overdue), oldest first, each marked read as it is answered; `[]` before login (the original
    /// clients ask before they log in), and for another user's name the line saying so.
    func notices(_ username: String) async throws -> String {
        let principal: Principal
        do { principal = try await self.principal(as: username) } catch let refusal as Refusal where refusal.answer == Answer.logInFirst {
            return Answer.emptyList
        }
        let notices = try await Page.all { try await library.circulation.notices.list(page: $0, by: principal).page }
        let unread = notices.filter { !$0.read && NoticeKind.ofLoans.contains($0.kind) }
        guard !unread.isEmpty else { return Answer.emptyList }
        let loans = try await Page.all { try await library.circulation.list.mine(page: $0, by: principal) }
        let books = Dictionary(loans.map { ($0.id, $0.book) }, uniquingKeysWith: { first, _ in first })
        var answer: [NoticeJSON] = []
        for notice in unread.reversed() {
            let book = await details(notice.loan.flatMap { books[$0] }, by: principal)
            answer.append(NoticeJSON(username: username, isbn: book?.isbn?.isbn13 ?? "", message: Self.words(notice), notified: false))
            try await library.circulation.notices.markRead(notice.id, by: principal)
        }
        return try ProtocolJSON.encode(answer)
    }

    /// What a loan notice says.
    static func words(_ notice: NoticeSummary) -> String {
        let day = ProtocolJSON.day(notice.dueAt)
        return notice.kind == .overdue
            ? "\(notice.bookTitle) was due back on \(day): it is overdue" : "\(notice.bookTitle) is due back on \(day)"
    }
}

extension BitBooksSession {
    /// A book's details as the catalogue has them now; nil for none, or a book since withdrawn.
    fileprivate func details(_ book: BookID?, by principal: Principal) async -> BookDetails? {
        guard let book else { return nil }
        return try? await library.catalogue.showBook.execute(book, by: principal).details
    }
}
