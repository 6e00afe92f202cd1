extension English {
    /// An app key's refusal.
    func appKey(_ problem: AppKeyProblem) -> String {
        switch problem {
        case .notALibrarian(let email):
            "\(email) is a member's account, and an app key acts as a librarian: promote the account first"
                + " (`shelfmark user promote \(email)`), or name a librarian"
        case .unknownKey: "no such key: it was never issued, was revoked, or its librarian is one no longer"
        }
    }
}

extension English {
    /// An app request's refusal, in the Prolific apps' terms (their routes, numbers and dates).
    func appRequest(_ problem: AppRequestProblem) -> String {
        switch problem {
        case .noBookNumbered(let number?): "there is no book number \(number)"
        case .noBookNumbered(nil): "there is no such book: a book is named by its number, such as books/7"
        case .noSuchRoute(let path):
            "there is nothing at \(path.isEmpty ? "the base URL itself" : "'\(path.prefix(100))'") under this key;"
                + " the routes are books, books/N (N a book's number) and clean"
        case .formNamesTwice(let name): "the form names '\(name.prefix(100))' twice; send each field once"
        case .formMalformed: "the form body is malformed: send it url-encoded in UTF-8 (a % followed by two hex digits)"
        case .neitherJSONNorForm:
            "send the book as JSON (application/json) or as a form (application/x-www-form-urlencoded)"
        case .checkoutTimeUnreadable:
            "lastCheckedOut must be a time written yyyy-MM-dd HH:mm:ss in UTC, such as 2026-12-01 09:00:00"
        }
    }
}
