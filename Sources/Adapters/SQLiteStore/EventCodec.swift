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

    /// Every stored type name this code reads.
    static let allTypes: [String] = [
        "book.added.v1", "book.edited.v1", "book.copies-added.v1", "book.copies-removed.v1", "book.withdrawn.v1", "user.registered.v1", "user.role-changed.v1", "user.session-opened.v1", "user.session-closed.v1", "email.claimed.v1", "email.login-failed.v1", "email.login-succeeded.v1", "book.copy-lent.v1", "book.copy-returned.v1", "loan.opened.v1", "loan.renewed.v1", "loan.returned.v1", "loan.notice-issued.v1", "patron.loan-started.v1", "patron.loan-renewed.v1", "patron.loan-ended.v1", "inbox.notices-read.v1", "bookmark.added.v1", "bookmark.removed.v1",
    ]

    static func encode(_ event: DomainEvent) throws -> (type: String, payload: String) {
        switch event {
        case .book(.added(let e)): ("book.added.v1", try json(e))
        case .book(.edited(let e)): ("book.edited.v1", try json(e))
        case .book(.copiesAdded(let e)): ("book.copies-added.v1", try json(e))
        case .book(.copiesRemoved(let e)): ("book.copies-removed.v1", try json(e))
        case .book(.withdrawn(let e)): ("book.withdrawn.v1", try json(e))
        case .user(.registered(let e)): ("user.registered.v1", try json(e))
        case .user(.roleChanged(let e)): ("user.role-changed.v1", try json(e))
        case .user(.sessionOpened(let e)): ("user.session-opened.v1", try json(e))
        case .user(.sessionClosed(let e)): ("user.session-closed.v1", try json(e))
        case .emailClaim(.claimed(let e)): ("email.claimed.v1", try json(e))
        case .emailClaim(.loginFailed(let e)): ("email.login-failed.v1", try json(e))
        case .emailClaim(.loginSucceeded(let e)): ("email.login-succeeded.v1", try json(e))
        case .book(.copyLent(let e)): ("book.copy-lent.v1", try json(e))
        case .book(.copyReturned(let e)): ("book.copy-returned.v1", try json(e))
        case .loan(.opened(let e)): ("loan.opened.v1", try json(e))
        case .loan(.renewed(let e)): ("loan.renewed.v1", try json(e))
        case .loan(.returned(let e)): ("loan.returned.v1", try json(e))
        case .loan(.noticeIssued(let e)): ("loan.notice-issued.v1", try json(e))
        case .patron(.loanStarted(let e)): ("patron.loan-started.v1", try json(e))
        case .patron(.loanRenewed(let e)): ("patron.loan-renewed.v1", try json(e))
        case .patron(.loanEnded(let e)): ("patron.loan-ended.v1", try json(e))
        case .inbox(.noticesRead(let e)): ("inbox.notices-read.v1", try json(e))
        case .bookmark(.added(let e)): ("bookmark.added.v1", try json(e))
        case .bookmark(.removed(let e)): ("bookmark.removed.v1", try json(e))
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
        case "user.registered.v1": return .user(.registered(try value(data)))
        case "user.role-changed.v1": return .user(.roleChanged(try value(data)))
        case "user.session-opened.v1": return .user(.sessionOpened(try value(data)))
        case "user.session-closed.v1": return .user(.sessionClosed(try value(data)))
        case "email.claimed.v1": return .emailClaim(.claimed(try value(data)))
        case "email.login-failed.v1": return .emailClaim(.loginFailed(try value(data)))
        case "email.login-succeeded.v1": return .emailClaim(.loginSucceeded(try value(data)))
        case "book.copy-lent.v1": return .book(.copyLent(try value(data)))
        case "book.copy-returned.v1": return .book(.copyReturned(try value(data)))
        case "loan.opened.v1": return .loan(.opened(try value(data)))
        case "loan.renewed.v1": return .loan(.renewed(try value(data)))
        case "loan.returned.v1": return .loan(.returned(try value(data)))
        case "loan.notice-issued.v1": return .loan(.noticeIssued(try value(data)))
        case "patron.loan-started.v1": return .patron(.loanStarted(try value(data)))
        case "patron.loan-renewed.v1": return .patron(.loanRenewed(try value(data)))
        case "patron.loan-ended.v1": return .patron(.loanEnded(try value(data)))
        case "inbox.notices-read.v1": return .inbox(.noticesRead(try value(data)))
        case "bookmark.added.v1": return .bookmark(.added(try value(data)))
        case "bookmark.removed.v1": return .bookmark(.removed(try value(data)))
        default: throw UnknownEventType(type: type)
        }
    }

    /// One encoder for every event, as for decoding.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        return encoder
    }()

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One decoder for every event: making one costs more than decoding a small payload.
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in try Timestamp.parse(decoder.singleValueContainer().decode(String.self)) }
        return decoder
    }()

    private static func value<T: Decodable>(_ data: Data) throws -> T {
        try decoder.decode(T.self, from: data)
    }
}
