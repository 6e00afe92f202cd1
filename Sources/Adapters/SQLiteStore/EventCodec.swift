import Application
import Domain
import Foundation

/// Maps domain events to their stored form: a stable, versioned type name and a JSON payload.
/// The names are the log's format: renaming Swift code never changes them.
enum EventCodec {
    struct UnknownEventType: Error, CustomStringConvertible {
        let type: String
        var description: String { "the log holds an event of unknown type '\(type)'" }
    }

    static func encode(_ event: DomainEvent) throws -> (type: String, payload: String) {
        switch event {
        case .book(.added(let e)): ("book.added.v1", try json(e))
        case .book(.edited(let e)): ("book.edited.v1", try json(e))
        case .book(.copiesAdded(let e)): ("book.copies-added.v1", try json(e))
        case .book(.copiesRemoved(let e)): ("book.copies-removed.v1", try json(e))
        case .book(.withdrawn(let e)): ("book.withdrawn.v1", try json(e))
        }
    }

    static func decode(type: String, payload: String) throws -> DomainEvent {
        let data = Data(payload.utf8)
        switch type {
        case "book.added.v1": return .book(.added(try value(data)))
        case "book.edited.v1": return .book(.edited(try value(data)))
        case "book.copies-added.v1": return .book(.copiesAdded(try value(data)))
        case "book.copies-removed.v1": return .book(.copiesRemoved(try value(data)))
        case "book.withdrawn.v1": return .book(.withdrawn(try value(data)))
        default: throw UnknownEventType(type: type)
        }
    }

    private static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func value<T: Decodable>(_ data: Data) throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }
}
