import Application
import Domain
import Foundation

/// A catalogue book as the clients read it.
struct BookJSON: Encodable, Equatable {
    let title: String
    let isbn: String
    let author: String
    let genre: String
    let copies: Int
    let givenCopies: Int
    let cover: String

    enum CodingKeys: String, CodingKey {
        case title, author, genre, copies, cover
        case isbn = "ISBN"
        case givenCopies = "given_copies"
    }

    init(_ entry: CatalogueEntry) {
        title = entry.details.title
        isbn = entry.details.isbn?.isbn13 ?? ""
        author = entry.details.authors.joined(separator: ", ")
        genre = entry.details.categories.first ?? ""
        copies = entry.copies
        // Copies not on the shelf: lent, or set aside for a member who waited (an outside walk saw a
        // kept copy offered as free, and the loan then refused).
        givenCopies = entry.onLoan + entry.setAside
        cover = entry.details.coverURL ?? ""
    }
}

/// An active loan as the clients read it; `return_date` is the due date.
struct LoanJSON: Encodable, Equatable {
    let username: String
    let isbn: String
    let loanDate: String
    let returnDate: String
    let title: String
    let cover: String

    enum CodingKeys: String, CodingKey {
        case username, isbn, title, cover
        case loanDate = "loan_date"
        case returnDate = "return_date"
    }
}

/// An unread notice as the clients read it; `notified` says whether it had been read before (never, here).
struct NoticeJSON: Encodable, Equatable {
    let username: String
    let isbn: String
    let message: String
    let notified: Bool
}

/// The protocol's JSON and dates.
enum ProtocolJSON {
    /// `value` as compact JSON on one line, keys sorted (one answer, always the same bytes), slashes unescaped.
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `DD-MM-YYYY`, in UTC.
    static func day(_ date: Date) -> String {
        let parts = Calendar.utc.dateComponents([.day, .month, .year], from: date)
        return String(format: "%02d-%02d-%04d", parts.day ?? 0, parts.month ?? 0, parts.year ?? 0)
    }
}

extension Calendar {
    fileprivate static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}
