import Application
import Domain

extension Wording {
    /// Who did something: a member by name and email, or what the log knows of them.
    func name(_ actor: ActorName) -> String {
        switch actor {
        case .member(let name, let email): t("message.actor.member", name, email)
        case .erasedMember: t("message.actor.erasedMember")
        case .unknownMember: t("message.actor.unknownMember")
        case .cliOperator: t("message.actor.cliOperator")
        case .system: t("message.actor.system")
        case .anonymous: t("message.actor.anonymous")
        }
    }

    /// One field of an event: `publisher: Chilton → Harper`, `title: Dune`, `publisher: Chilton → (removed)`.
    func text(_ change: FieldChange) -> String {
        switch (change.before, change.after) {
        case (let before?, let after?): t("message.change.changed", change.field, shown(before), shown(after))
        case (let before?, nil): t("message.change.changed", change.field, shown(before), t("message.change.removed"))
        case (nil, let after?): t("message.change.set", change.field, shown(after))
        case (nil, nil): t("message.change.set", change.field, t("message.change.removed"))
        }
    }

    private func shown(_ value: String) -> String { value.isEmpty ? t("message.change.empty") : value }
}
