import Domain

/// An app key as the app-key read model holds it, found by the digest of its text.
public struct AppKeyRecord: Equatable, Sendable {
    public let key: AppKeyID
    public let user: UserID
    public let app: String
    public let revoked: Bool
    public init(key: AppKeyID, user: UserID, app: String, revoked: Bool) {
        self.key = key
        self.user = user
        self.app = app
        self.revoked = revoked
    }
}

/// The app-key read model.
public protocol AppKeyRegister: Sendable {
    /// The key stored under `digest` (revoked or not), or nil when no key was ever issued with it.
    func appKey(digest: String) async throws -> AppKeyRecord?
    /// Whether `app` has a key that is not revoked and whose account is still a librarian's.
    func anyLive(app: String) async throws -> Bool
}

/// The small stable number each catalogue book is known by in the Prolific API (1, 2, 3… in
/// the order books were added; never reused, kept after a book leaves the catalogue).
public protocol CatalogueNumbers: Sendable {
    /// The book's number, or nil when the book was never added.
    func number(of book: BookID) async throws -> Int?
    /// The book with this number, or nil when no book ever had it.
    func book(numbered number: Int) async throws -> BookID?
    /// Every book still in the catalogue with its number, by number.
    func numbered() async throws -> [(number: Int, book: BookID)]
}
