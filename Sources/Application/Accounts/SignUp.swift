import Domain
import Foundation

/// Creates an account: claims the address, registers the user (with the language they chose, if
/// any), issues the library card (its number claimed too) and (optionally) opens a session, in
/// one atomic append, so two signups with one address, or two cards with one number, can never
/// both succeed.
public struct SignUp: Sendable {
    let deps: AccountDependencies

    /// Signs up `form`; `client` is the caller's address, limited in how often it may try.
    public func execute(
        _ form: SignupForm, role: Role = .member, openSession: Bool = true, client: String? = nil, by principal: Principal
    ) async throws -> SignedIn {
        try Authorization.require(role == .librarian ? .registerLibrarian : .signUp, by: principal)
        try deps.admit(client)
        var (email, name, country, problems) = form.validate()
        if problems.allSatisfy({ $0.field != "country" }), try await deps.countries.country(country) == nil {
            problems.append(FieldError("country", .unknownCountry(country)))
        }
        guard let email, problems.isEmpty else { throw InvalidInput(problems) }
        // Hashed before anything is decided: the plain password goes no further than this line.
        let hash = try await deps.hasher.hash(PasswordPolicy.normalized(form.password))
        let user = UserID(deps.runner.ids.next())
        let registration = UserRegistered(user: user, email: email, displayName: name, country: country, passwordHash: hash, role: role)
        let session = try await deps.runner.transact(by: principal) { transaction -> SignedIn.Session? in
            try await transaction.claimEmail(email, for: user)
            let account = try await transaction.load(UserAggregate.self, .user(user))
            var events = try UserAggregate.decide(.register(registration), account.state)
            if let name = form.chosenUsername, case .registered(let registered) = UserAggregate.fold(events, from: account.state) {
                events += try await transaction.changeUsername(.choose(name), of: registered)
            }
            if let language = form.chosenLanguage {
                events += try UserAggregate.decide(
                    .changeProfile(ProfileChange(language: language)), UserAggregate.fold(events, from: account.state))
            }
            // Every member gets a library card with the account, its number claimed in the same append.
            events += try await deps.runner.issueCard(to: user, in: UserAggregate.fold(events, from: account.state), &transaction)
            var session: SignedIn.Session?
            if openSession {
                let (opened, newSession) = try deps.openSession(in: UserAggregate.fold(events, from: account.state))
                events += opened
                session = newSession
            }
            transaction.record(account, events)
            return session
        }
        return SignedIn(account: try await deps.summary(user), session: session)
    }
}
