import Domain

/// Where each 201 points its `Location`: the new resource when it has an address, else the
/// nearest one a client can read it at, as the contract says for each operation.
enum Locations {
    /// A book of the catalogue.
    static func book(_ id: BookID) -> String { "/api/v1/books/\(id)" }
    /// The caller's own account: a new account, or the account of a new session.
    static let account = "/api/v1/me"
    /// The caller's loans, where new loans of a member are listed.
    static let ownLoans = "/api/v1/me/loans"
    /// After placing a hold: the member's holds, the new one among them.
    static let ownHolds = "/api/v1/me/holds"
    /// A member's record at the desk, where books lent to them at the desk are listed.
    static func member(_ id: UserID) -> String { "/api/v1/users/\(id)" }
    /// The copies of a book out on loan, where a walk-in loan is listed.
    static func loans(of book: BookID) -> String { "/api/v1/loans?book=\(book)" }
}
