import Domain
import Foundation

/// One request from outside, as the operator traces it: its id, which the events it records carry
/// as their correlation id, and who turned out to make it. A driving adapter starts one for each
/// request (`RequestTrace.$current`); authentication notes the caller; the command runner stamps the
/// id. Outside a request (the CLI, scheduled work) there is none and each command gets an id of its own.
public final class RequestTrace: Sendable {
    /// The trace of the request this task serves, if any.
    @TaskLocal public static var current: RequestTrace?

    /// The request's id: `X-Request-ID` over HTTP, and the correlation id of every event it records.
    public let id: UUID
    /// The id as headers, log lines and the log's correlation ids write it (lower case), made once.
    public let idText: String
    private let caller = Guarded<Principal?>(nil)

    public init(id: UUID) {
        self.id = id
        idText = UUIDText.lowercase(id)
    }

    /// Who made the request, once authentication has said so; nil while it has not.
    public var principal: Principal? { caller.withLock { $0 } }

    /// Notes who makes the request (authentication's answer).
    func note(_ principal: Principal) { caller.withLock { $0 = principal } }
}

extension Principal {
    /// This principal, noted in the current request's trace if there is one.
    func traced() -> Principal {
        RequestTrace.current?.note(self)
        return self
    }
}
