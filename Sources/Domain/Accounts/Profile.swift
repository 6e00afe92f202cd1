import Foundation

// A member's profile (display name, country, email, username, language) and the rule that the library keeps a
// librarian: the parts of the User aggregate's decisions that are about who the member is and
// what they may do, apart from sessions and passwords.

/// A member changed their display name or country; a field not changed is absent (an erased one
/// reads as absent too: the account it belonged to is closed).
public struct ProfileChanged: Equatable, Sendable, Codable {
    public let user: UserID
    public let displayName: String?
    public let country: String?
    public init(user: UserID, displayName: String? = nil, country: String? = nil) {
        self.user = user
        self.displayName = displayName
        self.country = country
    }
}

/// A member's address changed; the new one was claimed and the old one released in the same append.
public struct EmailChanged: Equatable, Sendable, Codable {
    public let user: UserID
    public let email: Personal<EmailAddress>
    public let previous: Personal<EmailAddress>
    public init(user: UserID, email: EmailAddress, previous: EmailAddress) {
        self.user = user
        self.email = .known(email)
        self.previous = .known(previous)
    }
}

/// A member chose a login name (claimed in the same append; the old one, if any, released).
public struct UsernameChosen: Equatable, Sendable, Codable {
    public let user: UserID
    public let username: Personal<Username>
    public init(user: UserID, username: Username) {
        self.user = user
        self.username = .known(username)
    }
}

/// A member chose the language the library speaks to them in (pages, notices, messages).
public struct LanguageChosen: Equatable, Sendable, Codable {
    public let user: UserID
    public let language: Language
    public init(user: UserID, language: Language) {
        self.user = user
        self.language = language
    }
}

/// A member gave up their login name (released in the same append).
public struct UsernameDropped: Equatable, Sendable, Codable {
    public let user: UserID
    public init(user: UserID) {
        self.user = user
    }
}

/// A profile change as checked (`ProfileForm.validate`): nil fields stay as they are.
public struct ProfileChange: Equatable, Sendable {
    public var displayName: String?
    public var country: String?
    /// The login name asked for, if the form named one (the use case claims it).
    public var username: UsernameRequest?
    /// The language the member prefers, if the form named one.
    public var language: Language?
    public init(displayName: String? = nil, country: String? = nil, language: Language? = nil) {
        self.displayName = displayName
        self.country = country
        self.language = language
    }
}

/// A profile form as typed: any subset of the fields, checked as the signup form checks them.
public struct ProfileForm: Sendable {
    public var displayName: String?
    public var country: String?
    public var email: String?
    /// A new login name; empty drops the one the account has.
    public var username: String?
    /// A preferred language as a tag ("fr", "fr-CA", "en"); one the library does not speak is refused.
    public var language: String?
    public init(
        displayName: String? = nil, country: String? = nil, email: String? = nil, username: String? = nil, language: String? = nil
    ) {
        self.username = username
        self.language = language
        self.displayName = displayName
        self.country = country
        self.email = email
    }

    /// The checked change and new address, or every field error (country codes are checked
    /// against the directory later). An empty name is refused: a profile always has one.
    public func validate() -> (change: ProfileChange, email: EmailAddress?, problems: [FieldError]) {
        var problems: [FieldError] = []
        var change = ProfileChange()
        var address: EmailAddress?
        if let email {
            do { address = try EmailAddress(registering: email) } catch { problems.append(error) }
        }
        if let displayName {
            let name = displayName.trimmingWhitespace()
            if FreeText.looksEmpty(name) { problems.append(FieldError("displayName", .required)) }
            problems += SignupForm.nameProblems(name)
            change.displayName = name
        }
        if let country {
            let code = country.trimmingWhitespace().uppercased()
            problems += SignupForm.countryProblems(code)
            change.country = code
        }
        if let username {
            do { change.username = username.trimmingWhitespace().isEmpty ? .drop : .choose(try Username(parsing: username)) } catch {
                problems.append(error)
            }
        }
        if let language {
            do { change.language = try Self.language(language) } catch { problems.append(error) }
        }
        return (change, address, problems)
    }

    /// The language a tag names, or the field error naming the languages the library speaks
    /// (an empty tag included: a preference, once chosen, is changed, not removed).
    static func language(_ tag: String) throws(FieldError) -> Language {
        guard let language = Language(tag: tag.trimmingWhitespace()) else {
            throw FieldError("language", .notOneOf(Language.allCases.map(\.rawValue)))
        }
        return language
    }
}

/// What a form asks of the account's login name.
public enum UsernameRequest: Equatable, Sendable {
    case choose(Username)
    case drop

    /// The name the account has once the request is carried out.
    public var name: Username? {
        if case .choose(let name) = self { name } else { nil }
    }
}

/// The account rules, one named function each: a rejection, or nil when the rule holds.
public enum UserRules {
    /// The library keeps a librarian: the last one can neither stop being one (demoted, by
    /// themselves or anyone) nor close their account. `otherLibrarians` counts the librarians
    /// besides `account`, as the use case read them; `staysLibrarian` is whether `account` is
    /// one after the command.
    public static func lastLibrarian(_ account: Account, staysLibrarian: Bool, otherLibrarians: Int) -> UserRejection? {
        guard account.role == .librarian, !staysLibrarian, otherLibrarians == 0 else { return nil }
        return .lastLibrarian
    }
}

extension UserAggregate {
    /// The events of a profile change: only the fields that differ, none when nothing does.
    static func changeProfile(_ change: ProfileChange, _ account: Account) -> [UserEvent] {
        let name = change.displayName.flatMap { $0 == account.displayName ? nil : $0 }
        let country = change.country.flatMap { $0 == account.country ? nil : $0 }
        var events: [UserEvent] = []
        if name != nil || country != nil {
            events.append(.profileChanged(ProfileChanged(user: account.id, displayName: name, country: country)))
        }
        if let language = change.language, language != account.language {
            events.append(.languageChosen(LanguageChosen(user: account.id, language: language)))
        }
        return events
    }

    /// The event of an address change, none when it is the address the account has.
    static func changeEmail(_ email: EmailAddress, _ account: Account) -> [UserEvent] {
        email == account.email ? [] : [.emailChanged(EmailChanged(user: account.id, email: email, previous: account.email))]
    }

    /// The event of a login name change, none when the account has that name (or none and none is asked).
    static func changeUsername(_ name: Username?, _ account: Account) -> [UserEvent] {
        guard name != account.username else { return [] }
        guard let name else { return [.usernameDropped(UsernameDropped(user: account.id))] }
        return [.usernameChosen(UsernameChosen(user: account.id, username: name))]
    }

    /// The event of a role change, unless it would leave the library without a librarian.
    static func changeRole(_ role: Role, otherLibrarians: Int, _ account: Account) throws(UserRejection) -> [UserEvent] {
        guard account.role != role else { return [] }
        if let rejection = UserRules.lastLibrarian(account, staysLibrarian: role == .librarian, otherLibrarians: otherLibrarians) {
            throw rejection
        }
        return [.roleChanged(RoleChanged(user: account.id, role: role))]
    }
}
