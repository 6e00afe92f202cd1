import Application
import Foundation
import OpenAPIRuntime
import Wording

extension Components.Schemas.HistoryEntry {
    /// One event for people: its actor by name, its payload as an object (secrets redacted), its changes.
    public init(_ e: Application.HistoryEntry, in catalogue: any MessageCatalogue = Wording.reader) throws {
        self.init(
            position: e.position, version: e.version, _type: e.type, recordedAt: e.recordedAt, actor: e.actor,
            actorName: catalogue.text(.actor(e.actorName)),
            payload: .init(additionalProperties: try OpenAPIObjectContainer(unvalidatedValue: e.payload.mapValues(\.plain))),
            changes: e.changes.map { .init(field: $0.field, from: $0.before, to: $0.after, text: catalogue.text(.fieldChange($0))) },
            correlationId: e.correlationID)
    }
}

extension PayloadValue {
    /// The value as the OpenAPI runtime's containers hold JSON.
    var plain: (any Sendable)? {
        switch self {
        case .string(let text): text
        case .integer(let number): Int(number)
        case .number(let number): number
        case .bool(let flag): flag
        case .null: nil
        case .array(let items): items.map(\.plain)
        case .object(let object): object.mapValues(\.plain)
        }
    }
}
