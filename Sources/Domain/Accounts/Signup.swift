import Foundation

/// What a member can do; librarians also keep the catalogue and see every loan.
public enum Role: String, Sendable, Codable, CaseIterable {
    case member
    case librarian
}

/// The password rules. Each failed rule is its own field error, so a form can show them all.
public enum PasswordPolicy {
    public static let minLength = 8
    /// bcrypt reads no further than 72 bytes; a longer password is refused rather than truncated silently.
    public static let maxBytes = 72

    /// The password as it is hashed and checked: composed (NFC), so `é` typed as one character or
    /// as `e` and a combining accent is one password, whatever keyboard typed it.
    public static func normalized(_ password: String) -> String { password.precomposedStringWithCanonicalMapping }

    /// Whether a password typed at login can be a stored one: longer ones are refused, not cut
    /// at bcrypt's limit (which would let anything after the 72nd byte in).
    public static func tooLong(_ password: String) -> FieldError? {
        normalized(password).utf8.count > maxBytes
            ? FieldError("password", .tooManyBytes(max: maxBytes)) : nil
    }

    /// Every rule `password` breaks (checked in its normalized form).
    public static func problems(_ password: String) -> [FieldError] {
        let password = normalized(password)
        var problems: [FieldError] = []
        if password.count < minLength { problems.append(FieldError("password", .tooShort(min: minLength))) }
        if !password.contains(where: \.isUppercase) { problems.append(FieldError("password", .needsUppercase)) }
        if !password.contains(where: { !$0.isLetter && !$0.isNumber && !$0.isWhitespace }) {
            problems.append(FieldError("password", .needsSpecialCharacter))
        }
        if let tooLong = tooLong(password) { problems.append(tooLong) }
        // bcrypt would stop at a NUL, so "A!\0anything" would be the password "A!".
        if let problem = FreeText.problem(password, field: "password") { problems.append(problem) }
        return problems
    }
}

/// A signup form as typed, before anything is checked.
public struct SignupForm: Sendable {
    public var email: String
    public var password: String
    public var displayName: String?
    public var country: String
    /// An optional login name for clients that log in with one; empty means none.
    public var username: String?
    /// An optional preferred language as a tag ("fr", "fr-CA"): the web signs up in its page's language.
    public var language: String?

    public init(
        email: String, password: String, displayName: String? = nil, country: String, username: String? = nil, language: String? = nil
    ) {
        self.username = username
        self.language = language
        self.email = email
        self.password = password
        self.displayName = displayName
        self.country = country
    }

    /// The checked values, or every field error (country codes are checked against the directory later).
    public func validate() -> (email: EmailAddress?, name: String, country: String, problems: [FieldError]) {
        var problems: [FieldError] = []
        var email: EmailAddress?
        do { email = try EmailAddress(registering: self.email) } catch { problems.append(error) }
        problems += PasswordPolicy.problems(password)
        let name = (displayName ?? "").trimmingWhitespace()
        problems += Self.nameProblems(name)
        let code = country.trimmingWhitespace().uppercased()
        problems += Self.countryProblems(code)
        if let username, !username.trimmingWhitespace().isEmpty {
            do { _ = try Username(parsing: username) } catch { problems.append(error) }
        }
        if let language {
            do { _ = try ProfileForm.language(language) } catch { problems.append(error) }
        }
        return (email, FreeText.looksEmpty(name) ? (email.map { String($0.value.prefix { $0 != "@" }) } ?? "") : name, code, problems)
    }

    /// The login name asked for, once `validate` found no problem with it; nil when none was.
    public var chosenUsername: Username? {
        guard let username, !username.trimmingWhitespace().isEmpty else { return nil }
        return try? Username(parsing: username)
    }

    /// The language asked for, once `validate` found no problem with it; nil when none was.
    public var chosenLanguage: Language? {
        language.flatMap { try? ProfileForm.language($0) }
    }

    /// What is wrong with a display name (trimmed): too long, or characters names may not hold.
    static func nameProblems(_ name: String) -> [FieldError] {
        var problems: [FieldError] = []
        if FreeText.isTooLong(name, max: 100) { problems.append(FieldError("displayName", .tooLong(max: 100))) }
        if let problem = FreeText.problem(name, field: "displayName") { problems.append(problem) }
        return problems
    }

    /// What is wrong with a country code (trimmed, upper-cased): not two letters.
    static func countryProblems(_ code: String) -> [FieldError] {
        code.count != 2 || !code.allSatisfy({ $0.isASCII && $0.isLetter }) ? [FieldError("country", .notACountryCode)] : []
    }
}
