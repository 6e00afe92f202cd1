import Domain

/// Names the actors the log records (`operator`, `system`, `anonymous`, `user:<id>`) from the
/// accounts read model as it is now, so an erased member reads "erased member" in every view,
/// past ones included (a closed account has no row; its stream says it was closed).
struct ActorNames: Sendable {
    let accounts: any Accounts
    let runner: CommandRunner

    init(_ deps: AccountDependencies) {
        accounts = deps.accounts
        runner = deps.runner
    }

    /// The name of the actor the log records as `actor`.
    func name(of actor: String) async throws -> ActorName {
        switch actor {
        case Principal.cliOperator.actor: return .cliOperator
        case Principal.system.actor: return .system
        case Principal.anonymous.actor: return .anonymous
        default:
            guard actor.hasPrefix("user:"), let id = UserID(String(actor.dropFirst("user:".count))) else { return .unknownMember }
            return try await name(of: id)
        }
    }

    /// The name of an account.
    func name(of id: UserID) async throws -> ActorName {
        if let account = try await accounts.account(id) { return .member(name: account.displayName, email: account.email.value) }
        if case .closed = try await runner.load(UserAggregate.self, .user(id)).state { return .erasedMember }
        return .unknownMember
    }

    /// The names of several actors, each looked up once.
    func names(of actors: some Sequence<String>) async throws -> [String: ActorName] {
        var names: [String: ActorName] = [:]
        for actor in actors where names[actor] == nil { names[actor] = try await name(of: actor) }
        return names
    }
}
