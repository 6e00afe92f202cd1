import Application
import Domain

/// An event ready for a store's writer: encoded outside the write transaction (its personal data is
/// sealed inside it, where the member's key is read or made).
public struct EncodedEvent: Sendable {
    public let event: DomainEvent
    public let metadata: EventMetadata
    public let encoded: EventCodec.Encoded

    public init(_ pending: PendingEvent) throws {
        event = pending.event
        metadata = pending.metadata
        encoded = try EventCodec.encoded(pending.event)
    }
}
