// The AppKey aggregate, one stream per key: a capability an old client app carries in its URL
// (the Prolific apps' `/{key}/`), standing for one librarian. The log holds only the key's
// SHA-256 digest, never the key; revoking it ends it for good. Whether the librarian still is one
// is asked again at every request (the use case reads the account), so a demoted or closed
// account's key stops working without an event of its own.

/// Tag of app key ids.
public enum AppKeyTag {}
/// Identifies one app key (never the secret key itself).
public typealias AppKeyID = Identifier<AppKeyTag>

/// What happened to an app key. Stored in the log; never change a case's meaning.
public enum AppKeyEvent: Equatable, Sendable {
    case issued(AppKeyIssued)
    case revoked(AppKeyRevoked)
}

/// How the log stores each case: its name, written once here, and its payload.
extension AppKeyEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case issued = "app-key.issued.v1"
        case revoked = "app-key.revoked.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .issued(let e): (.issued, e)
        case .revoked(let e): (.revoked, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> AppKeyEvent {
        switch type {
        case .issued: .issued(try payload.decode())
        case .revoked: .revoked(try payload.decode())
        }
    }

    /// The key's digest is a secret, as a session token's is.
    public static func secretFields(of type: StoredType) -> Set<String> { type == .issued ? ["digest"] : [] }
}

/// A key was issued to a librarian for one app; only the SHA-256 digest (hex) of the key is recorded.
public struct AppKeyIssued: Equatable, Sendable, Codable {
    public let key: AppKeyID
    public let user: UserID
    /// The app the key is for, such as `AppKeyIssued.prolific`.
    public let app: String
    public let digest: String
    public init(key: AppKeyID, user: UserID, app: String, digest: String) {
        self.key = key
        self.user = user
        self.app = app
        self.digest = digest
    }

    /// The Prolific catalogue apps' REST API.
    public static let prolific = "prolific"
}

/// A key was revoked: it opens nothing from then on.
public struct AppKeyRevoked: Equatable, Sendable, Codable {
    public let key: AppKeyID
    public init(key: AppKeyID) { self.key = key }
}

/// An app key's life.
public enum AppKeyState: Equatable, Sendable {
    case absent
    case live(AppKeyIssued)
    case revoked(AppKeyIssued)
}

/// What can be asked of an app key.
public enum AppKeyCommand: Equatable, Sendable {
    /// Issue the key to an account holding `role`.
    case issue(AppKeyIssued, role: Role)
    /// End the key.
    case revoke
}

/// Why an app key command is refused.
public enum AppKeyRejection: Error, Equatable, Sendable {
    /// Keys act as a librarian: a member's account cannot hold one.
    case notALibrarian
    /// The key was issued already (with other details) or revoked.
    case idInUse
    /// There is no such key.
    case notIssued
}

/// The AppKey aggregate's decisions and fold.
public enum AppKeyAggregate: Aggregate {
    public static let initial = AppKeyState.absent

    public static func evolve(_ state: AppKeyState, _ event: AppKeyEvent) -> AppKeyState {
        switch (event, state) {
        case (.issued(let e), _): .live(e)
        case (.revoked, .live(let issued)), (.revoked, .revoked(let issued)): .revoked(issued)
        case (.revoked, .absent): .absent
        }
    }

    public static func decide(_ command: AppKeyCommand, _ state: AppKeyState) throws(AppKeyRejection) -> [AppKeyEvent] {
        switch (command, state) {
        case (.issue(let issued, _), .live(let existing)) where existing == issued: return []
        case (.issue, .live), (.issue, .revoked): throw .idInUse
        case (.issue(let issued, let role), .absent):
            if let rejection = onlyLibrarians(role) { throw rejection }
            return [.issued(issued)]
        case (.revoke, .live(let issued)): return [.revoked(AppKeyRevoked(key: issued.key))]
        case (.revoke, .revoked): return []
        case (.revoke, .absent): throw .notIssued
        }
    }

    /// The rule: a key acts as a librarian, so only a librarian's account holds one.
    static func onlyLibrarians(_ role: Role) -> AppKeyRejection? {
        role == .librarian ? nil : .notALibrarian
    }
}
