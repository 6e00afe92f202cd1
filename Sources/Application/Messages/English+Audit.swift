extension English {
    /// Who did something: a member by name and email, or what the log knows of them.
    func name(_ actor: ActorName) -> String {
        switch actor {
        case .member(let name, let email): "\(name) <\(email)>"
        case .erasedMember: "erased member"
        case .unknownMember: "unknown member"
        case .cliOperator: "operator"
        case .system: "system"
        case .anonymous: "someone not logged in"
        }
    }

    /// One field of an event: `publisher: Chilton → Harper`, `title: Dune`, `publisher: Chilton → (removed)`.
    func text(_ change: FieldChange) -> String {
        switch (change.before, change.after) {
        case (let before?, let after?): "\(change.field): \(shown(before)) → \(shown(after))"
        case (let before?, nil): "\(change.field): \(shown(before)) → (removed)"
        case (nil, let after?): "\(change.field): \(shown(after))"
        case (nil, nil): "\(change.field): (removed)"
        }
    }

    private func shown(_ value: String) -> String { value.isEmpty ? "(empty)" : value }
}
