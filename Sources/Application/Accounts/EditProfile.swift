import Domain

/// A member changes their own display name, country, email, username or language, any of them,
/// checked as signup checks them. A new address is claimed and the old one released in the same atomic append as
/// the change (an address taken by another account is refused as at signup); the login throttle's
/// failures follow the account to its new address.
public struct EditProfile: Sendable {
    let deps: AccountDependencies

    /// Applies `form` to the caller's account and returns the account as it is now.
    public func execute(_ form: ProfileForm, by principal: Principal) async throws -> AccountSummary {
        let (user, _) = try Authorization.user(.editOwnAccount, by: principal)
        var (change, email, problems) = form.validate()
        if let country = change.country, problems.allSatisfy({ $0.field != "country" }), try await deps.countries.country(country) == nil {
            problems.append(FieldError("country", .unknownCountry(country)))
        }
        guard problems.isEmpty else { throw InvalidInput(problems) }
        let previous = try await deps.runner.transact(by: principal) { transaction -> EmailAddress? in
            let loaded = try await transaction.load(UserAggregate.self, .user(user))
            guard case .registered(let account) = loaded.state else { throw NotFound(.user, user.description) }
            var events = try UserAggregate.decide(.changeProfile(change), loaded.state)
            var previous: EmailAddress?
            if let email, case let moved = try UserAggregate.decide(.changeEmail(email), loaded.state), !moved.isEmpty {
                events += moved
                try await transaction.claimEmail(email, for: user)
                try await transaction.releaseEmail(account.email, of: user)
                previous = account.email
            }
            if let request = change.username { events += try await transaction.changeUsername(request, of: account) }
            transaction.record(loaded, events)
            return previous
        }
        if let previous, let email { try await deps.loginFailures.move(from: previous, to: email) }
        return try await deps.summary(user)
    }
}
