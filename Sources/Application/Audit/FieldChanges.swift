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

/// A stream's state as its payloads say it, folded event by event, to tell what each event
/// changed. Top-level fields carry over from one event to the next; a nested object (a book's
/// `details`) is replaced whole by the next event that has it, its fields shown as the event's own.
/// An event about something other than the one before (an id field with another id: a second
/// loan in a member's stream) or that changes nothing lists its own fields.
struct PayloadFold {
    /// Field paths (`details.publisher`) and their values.
    private var state: [String: PayloadValue] = [:]

    /// What `payload` (redacted) changes, then the state after it. Secret fields are always listed, never compared.
    mutating func changes(_ payload: [String: PayloadValue], secrets: Set<String>) -> [FieldChange] {
        let fields = Self.flatten(payload)
        let names = Self.names(fields.map(\.path))
        let replaced = Set(payload.compactMap { if case .object = $0.value { $0.key } else { nil } })
        var changed: [FieldChange] = []
        var aboutAnother = false
        for (path, value) in fields where secrets.contains(path) || state[path] != value {
            let before = secrets.contains(path) ? nil : state[path]
            if let before, Self.isID(before), Self.isID(value) { aboutAnother = true }
            changed.append(FieldChange(field: names[path] ?? path, before: before.map(Self.shown), after: Self.shown(value)))
        }
        let paths = Set(fields.map(\.path))
        let removed = state.filter { path, _ in !paths.contains(path) && replaced.contains { path.hasPrefix($0 + ".") } }
        for (path, value) in removed.sorted(by: { $0.key < $1.key }) {
            changed.append(FieldChange(field: Self.leaf(path), before: Self.shown(value), after: nil))
            state[path] = nil
        }
        for (path, value) in fields { state[path] = value }
        if changed.isEmpty { return fields.map { FieldChange(field: names[$0.path] ?? $0.path, after: Self.shown($0.value)) } }
        return aboutAnother ? changed.map { FieldChange(field: $0.field, after: $0.after) } : changed
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
