import APIContract
import Application
import Domain
import Foundation
import OpenAPIRuntime

/// Accounts, sessions and countries: the generated operations, mapped onto the use cases.
extension LibraryAPI {
    var accounts: AccountUseCases { library.accounts }

    func signUp(_ input: Operations.SignUp.Input) async throws -> Operations.SignUp.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let form = SignupForm(
            email: body.email, password: body.password, displayName: body.displayName, country: body.country, username: body.username,
            language: body.language)
        let account = try await signedIn(try await accounts.signUp.execute(form, client: RequestScope.clientIP, by: principal))
        return .created(.init(headers: .init(location: Locations.account), body: .json(account)))
    }

    func logIn(_ input: Operations.LogIn.Input) async throws -> Operations.LogIn.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        guard let login = body.email ?? body.username, body.email == nil || body.username == nil else {
            throw InvalidInput("email", .exactlyOneOf(["email", "username"]))
        }
        let session = try await signedIn(
            try await accounts.logIn.execute(login: login, password: body.password, client: RequestScope.clientIP))
        return .created(.init(headers: .init(location: Locations.account), body: .json(session)))
    }

    func logOut(_ input: Operations.LogOut.Input) async throws -> Operations.LogOut.Output {
        try await accounts.logOut.execute(by: principal)
        return .noContent(.init())
    }

    func logOutEverywhere(_ input: Operations.LogOutEverywhere.Input) async throws -> Operations.LogOutEverywhere.Output {
        try await accounts.logOut.execute(everywhere: true, by: principal)
        return .noContent(.init())
    }

    func me(_ input: Operations.Me.Input) async throws -> Operations.Me.Output {
        let (account, version) = try await versionedMe()
        if EntityTags.unchanged(ifNoneMatch: input.headers.ifNoneMatch, current: EntityTags.tag(version)) {
            return .notModified(.init(headers: .init(eTag: EntityTags.tag(version))))
        }
        return .ok(.init(headers: .init(eTag: EntityTags.tag(version)), body: .json(.init(account))))
    }

    /// The caller's account and its version, the version read first: the answer is never older than its tag says.
    private func versionedMe() async throws -> (AccountSummary, ResourceVersion) {
        guard case .user(let id, _, _) = principal else { throw Unauthenticated() }
        let version = try await library.catalogue.versions.account(id)
        return (try await accounts.showMe.execute(by: principal), version)
    }

    func editMe(_ input: Operations.EditMe.Input) async throws -> Operations.EditMe.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let form = ProfileForm(
            displayName: body.displayName, country: body.country, email: body.email, username: body.username, language: body.language)
        _ = try await accounts.editProfile.execute(form, by: principal)
        let (account, version) = try await versionedMe()
        return .ok(.init(headers: .init(eTag: EntityTags.tag(version)), body: .json(.init(account))))
    }

    func listUsers(_ input: Operations.ListUsers.Input) async throws -> Operations.ListUsers.Output {
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        return .ok(.init(body: .json(.init(try await accounts.listUsers.execute(page: page, by: principal)))))
    }

    func changeRole(_ input: Operations.ChangeRole.Input) async throws -> Operations.ChangeRole.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let member = try await accounts.members.find(input.path.idOrEmail, by: principal)
        let role: Role = body.role == .librarian ? .librarian : .member
        return .ok(.init(body: .json(.init(try await accounts.changeRole.execute(member, to: role, by: principal)))))
    }

    func listCountries(_ input: Operations.ListCountries.Input) async throws -> Operations.ListCountries.Output {
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        return .ok(.init(body: .json(.init(try await accounts.countries.list(page: page)))))
    }

    func defaultCountry(_ input: Operations.DefaultCountry.Input) async throws -> Operations.DefaultCountry.Output {
        let country = try await accounts.countries.defaultCountry(
            clientIP: RequestScope.clientIP, acceptLanguage: input.headers.acceptLanguage)
        guard let country else { return .noContent(.init()) }
        return .ok(.init(body: .json(.init(country))))
    }
}

extension LibraryAPI {
    /// The answer to a signup or login: the account, its token, and its unread count with the newest notices.
    func signedIn(_ signedIn: SignedIn) async throws -> Components.Schemas.SignedIn {
        guard let session = signedIn.session else { throw Unauthenticated() }
        let principal = Principal.user(signedIn.account.id, signedIn.account.role, session.id)
        let notices = try await library.circulation.notices.list(
            page: try PageRequest(limit: Components.Schemas.SignedIn.noticesShown), by: principal)
        return .init(signedIn.account, session: session, notices: notices)
    }
}
