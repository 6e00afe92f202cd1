import Domain

/// The one place that knows which stored payload fields are secrets (password hashes, reset-code
/// and session-token digests), read from the aggregates' own declarations
/// (`StoredEvent.secretFields`), and hides them: history, export and every answer go through it.
public enum Secrets {
    /// What a redacted field holds instead of its value.
    public static let marker = "[redacted]"

    /// The secret fields of each stored type name that has any.
    public static let fieldsByType: [String: Set<String>] = Dictionary(
        DomainEvent.aggregates.flatMap { fields(of: $0) }.filter { !$0.fields.isEmpty }.map { ($0.type, $0.fields) },
        uniquingKeysWith: { first, _ in first })

    /// The secret fields events of `type` hold (none for a type this code does not know).
    public static func fields(of type: String) -> Set<String> { fieldsByType[type] ?? [] }

    /// The payload with each secret field's value replaced by `marker`, and the fields replaced,
    /// sorted. A payload without secrets comes back as it was, byte for byte.
    public static func redact(type: String, payload: String) -> (payload: String, redacted: [String]) {
        let secrets = fields(of: type)
        guard !secrets.isEmpty, let object = PayloadValue.object(parsing: payload) else { return (payload, []) }
        let redacted = redact(type: type, object)
        let fields = secrets.filter { object[$0] != nil }.sorted()
        return fields.isEmpty ? (payload, []) : (PayloadValue.text(of: redacted), fields)
    }

    /// The payload object with each secret field's value replaced by `marker`.
    public static func redact(type: String, _ payload: [String: PayloadValue]) -> [String: PayloadValue] {
        var payload = payload
        for field in fields(of: type) where payload[field] != nil { payload[field] = .string(marker) }
        return payload
    }

    private static func fields<A: EventSourced>(of _: A.Type) -> [(type: String, fields: Set<String>)] {
        A.Event.StoredType.allCases.map { ($0.rawValue, A.Event.secretFields(of: $0)) }
    }
}
