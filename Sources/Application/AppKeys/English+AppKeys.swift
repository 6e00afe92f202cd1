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
