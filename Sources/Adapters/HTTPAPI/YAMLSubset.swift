import Yams

/// A YAML value as the server reads its own contract (`ContractShapes`): scalars, sequences and
/// mappings in the document's order, so what an error says about a parameter or a field comes
/// from the document the code was generated from. Parsing is Yams' (libyaml).
indirect enum YAMLValue: Equatable, Sendable {
    case scalar(String)
    case list([YAMLValue])
    case map([Entry])

    /// One key of a mapping, in the document's order.
    struct Entry: Equatable, Sendable {
        let key: String
        let value: YAMLValue
    }

    /// The value at `key` of a mapping.
    subscript(key: String) -> YAMLValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    var string: String? { if case .scalar(let text) = self { text } else { nil } }
    var items: [YAMLValue] { if case .list(let items) = self { items } else { [] } }
    var entries: [Entry] { if case .map(let entries) = self { entries } else { [] } }

    /// The document `text` holds.
    static func parse(_ text: String) throws -> YAMLValue {
        guard let node = try Yams.compose(yaml: text) else { return .map([]) }
        return YAMLValue(node)
    }

    private init(_ node: Node) {
        switch node {
        case .scalar(let scalar): self = .scalar(scalar.string)
        case .sequence(let sequence): self = .list(sequence.map(YAMLValue.init))
        case .mapping(let mapping): self = .map(mapping.map { Entry(key: $0.key.string ?? "", value: YAMLValue($0.value)) })
        case .alias: self = .scalar("")
        }
    }
}
