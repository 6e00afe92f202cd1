import Domain
import Foundation

/// One field of an event, as history shows it: `publisher: Chilton → Harper` when it changed,
/// `title: Dune` when it was set.
public struct FieldChange: Equatable, Sendable {
    /// What a field whose personal data was erased reads (`null` in the payload), as `Secrets.marker` for a secret.
    public static let erased = "[erased]"

    public let field: String
    /// The value before the event; nil when the event set it, or when the event is about something new.
    public let before: String?
    /// The value after; nil when the event removed it.
    public let after: String?
    public init(field: String, before: String? = nil, after: String?) {
        self.field = field
        self.before = before
        self.after = after
    }
}

/// What each event of a stream changed, as a librarian reading its history expects:
///
/// - An **edit** (a type in `edits`: a book's details edited; a member's profile, email or role
///   changed; a loan renewed) shows each field it states against the value that the stream's
///   earlier events *about the same thing* last gave it: `publisher: Chilton → Harper`. A field it
///   states unchanged is left out; a field nothing earlier gave reads as set (`isbn: 978…`); a
///   nested object it replaces whole (a book's `details`) lists the fields it no longer has as
///   removed. "The same thing": the earlier event shares an id field (a UUID: `book`, `loan`,
///   `user`) with the edit, and every id field both have holds the same id, so a renewal of one
///   loan is never compared with another loan of the member's stream. An edit that changes
///   nothing lists all its fields.
/// - **Every other event** records something that happened (a book added, a session opened, a
///   loan started, a reset code issued): it lists every field it states, compared with nothing,
///   so one session never reads as another changed into it, and two loans due the same day both
///   show `dueAt`.
///
/// Secret fields are always listed, never compared.
struct PayloadFold {
    /// The stored types that edit something an earlier event of their stream stated.
    static let edits: Set<String> = [
        BookEvent.StoredType.edited.rawValue, UserEvent.StoredType.profileChanged.rawValue,
        UserEvent.StoredType.emailChanged.rawValue, UserEvent.StoredType.roleChanged.rawValue,
        LoanEvent.StoredType.renewed.rawValue, PatronEvent.StoredType.loanRenewed.rawValue,
    ]

    /// One earlier event of the stream, as an edit compares with it.
    private struct Stated {
        /// Its top-level id fields (UUIDs).
        let ids: [String: PayloadValue]
        /// Its fields by path.
        let fields: [(path: String, value: PayloadValue)]
        /// The nested objects it states whole.
        let replaced: Set<String>
    }

    /// The stream's events so far, oldest first.
    private var earlier: [Stated] = []

    /// What `payload` (redacted), an event of `type`, states or changes; then it counts as an earlier event.
    mutating func changes(_ payload: [String: PayloadValue], type: String, secrets: Set<String>) -> [FieldChange] {
        let fields = Self.flatten(payload)
        let names = Self.names(fields.map(\.path))
        let stated = Stated(
            ids: payload.filter { Self.isID($0.value) }, fields: fields,
            replaced: Set(payload.compactMap { if case .object = $0.value { $0.key } else { nil } }))
        defer { earlier.append(stated) }
        let listed = fields.map { FieldChange(field: names[$0.path] ?? $0.path, after: Self.shown($0.value)) }
        guard Self.edits.contains(type) else { return listed }
        let state = self.state(about: stated.ids)
        var changed: [FieldChange] = []
        for (path, value) in fields where secrets.contains(path) || state[path] != value {
            let before = secrets.contains(path) ? nil : state[path]
            changed.append(FieldChange(field: names[path] ?? path, before: before.map(Self.shown), after: Self.shown(value)))
        }
        let paths = Set(fields.map(\.path))
        let removed = state.filter { path, _ in !paths.contains(path) && stated.replaced.contains { path.hasPrefix($0 + ".") } }
        for (path, value) in removed.sorted(by: { $0.key < $1.key }) {
            changed.append(FieldChange(field: Self.leaf(path), before: Self.shown(value), after: nil))
        }
        return changed.isEmpty ? listed : changed
    }

    /// The fields the earlier events about the thing `ids` names last stated, by path.
    private func state(about ids: [String: PayloadValue]) -> [String: PayloadValue] {
        var state: [String: PayloadValue] = [:]
        for event in earlier where Self.isAbout(event.ids, ids) {
            for path in state.keys where event.replaced.contains(where: { path.hasPrefix($0 + ".") }) { state[path] = nil }
            for (path, value) in event.fields { state[path] = value }
        }
        return state
    }

    /// Whether two events' ids name the same thing: they share an id field, and every one they share holds the same id.
    static func isAbout(_ ids: [String: PayloadValue], _ other: [String: PayloadValue]) -> Bool {
        let shared = Set(ids.keys).intersection(other.keys)
        return !shared.isEmpty && shared.allSatisfy { ids[$0] == other[$0] }
    }

    /// The payload's fields, a nested object's by `key.field`, sorted by path.
    static func flatten(_ payload: [String: PayloadValue]) -> [(path: String, value: PayloadValue)] {
        payload.flatMap { key, value -> [(path: String, value: PayloadValue)] in
            guard case .object(let nested) = value else { return [(key, value)] }
            return nested.map { ("\(key).\($0.key)", $0.value) }
        }
        .sorted { $0.path < $1.path }
    }

    /// How each path is named: a nested field by its own name unless another field has that name.
    static func names(_ paths: [String]) -> [String: String] {
        let leaves = paths.map(leaf)
        let counts = Dictionary(leaves.map { ($0, 1) }, uniquingKeysWith: +)
        return Dictionary(zip(paths, leaves).map { ($0, counts[$1] == 1 ? $1 : $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A path's last part: `details.publisher` is `publisher`.
    static func leaf(_ path: String) -> String { path.split(separator: ".").last.map(String.init) ?? path }

    /// A value as a person reads it: text as it is, lists joined by commas.
    static func shown(_ value: PayloadValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .bool(let flag): String(flag)
        case .null: FieldChange.erased
        case .array(let items): items.map(shown).joined(separator: ", ")
        case .object(let object): PayloadValue.text(of: object)
        }
    }

    /// Whether a value is an id (a UUID), which names the thing an event is about.
    static func isID(_ value: PayloadValue) -> Bool {
        if case .string(let text) = value { UUID(uuidString: text) != nil } else { false }
    }
}
