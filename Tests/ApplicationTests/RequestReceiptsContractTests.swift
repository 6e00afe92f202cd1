import Application
import Foundation
import InMemory
import Testing

/// The request receipts port (safe retries) and the event store's append with a receipt: a
/// receipt is written in the append's atomic step or not at all; run against both stores.
@Suite("Request receipts contract")
struct RequestReceiptsContractTests {
    struct Factory: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable () async throws -> (any EventStore, any RequestReceipts)
        var testDescription: String { name }

        static let all: [Factory] =
            [
                Factory(name: "in-memory") {
                    let store = InMemoryEventStore()
                    return (store, store)
                },
                Factory(name: "SQLite") {
                    let store = try SQLiteUnderTest(durability: .off)
                    return (store, store.database.requestReceipts)
                },
            ]
            + (PostgresTestServer.url == nil
                ? []
                : [
                    Factory(name: "PostgreSQL") {
                        let library = try await PostgresTestServer.library()
                        return (library.eventStore, library.requestReceipts)
                    }
                ])
    }

    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static func receipt(_ key: String = "k", fingerprint: String = "f", at offset: TimeInterval = 0) -> RequestReceipt {
        RequestReceipt(
            key: key, fingerprint: fingerprint, attempt: UUID(), recordedAt: start.addingTimeInterval(offset),
            expiresAt: start.addingTimeInterval(offset + SafeRetries.keptFor))
    }

    @Test("an append records its receipt in the same step, once per attempt", arguments: Factory.all)
    func recordedWithTheEvents(factory: Factory) async throws {
        let (store, receipts) = try await factory.make()
        let receipt = Self.receipt()
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(1)])], receipt: receipt)
        try await store.append([StreamAppend("s-2", expected: .noStream, events: [pending(2)])], receipt: receipt)
        #expect(try await receipts.receipt("k") == KeptReceipt(receipt, answer: nil))
        #expect(try await receipts.receipt("other") == nil)
    }

    @Test("another attempt's append under a key held is refused and writes nothing", arguments: Factory.all)
    func duplicateWritesNothing(factory: Factory) async throws {
        let (store, receipts) = try await factory.make()
        let first = Self.receipt()
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(1)])], receipt: first)
        await #expect(throws: RequestAlreadyRecorded(key: "k")) {
            try await store.append([StreamAppend("s-2", expected: .noStream, events: [pending(2)])], receipt: Self.receipt(at: 60))
        }
        #expect(try await store.readAll(after: 0, limit: 10).count == 1)
        #expect(try await receipts.receipt("k")?.receipt == first)
    }

    @Test("a conflicting append leaves no receipt", arguments: Factory.all)
    func conflictLeavesNoReceipt(factory: Factory) async throws {
        let (store, receipts) = try await factory.make()
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(1)])])
        await #expect(throws: AppendConflict.self) {
            try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(2)])], receipt: Self.receipt())
        }
        #expect(try await receipts.receipt("k") == nil)
    }

    @Test("an expired receipt gives way to a new request", arguments: Factory.all)
    func expiredGivesWay(factory: Factory) async throws {
        let (store, receipts) = try await factory.make()
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(1)])], receipt: Self.receipt())
        let later = Self.receipt(fingerprint: "g", at: SafeRetries.keptFor)
        try await store.append([StreamAppend("s-2", expected: .noStream, events: [pending(2)])], receipt: later)
        #expect(try await receipts.receipt("k")?.receipt == later)
    }

    @Test("the answer is kept on its own attempt's receipt only; expired receipts are forgotten", arguments: Factory.all)
    func answersAndForgetting(factory: Factory) async throws {
        let (store, receipts) = try await factory.make()
        let first = Self.receipt()
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(1)])], receipt: first)
        try await receipts.keep(Data("first".utf8), for: first)
        try await receipts.keep(Data("intruder".utf8), for: Self.receipt(at: 1))
        #expect(try await receipts.receipt("k") == KeptReceipt(first, answer: Data("first".utf8)))
        // A request that appended nothing keeps its receipt and answer in one go.
        let quiet = Self.receipt("q", at: 10)
        try await receipts.keep(Data("quiet".utf8), for: quiet)
        #expect(try await receipts.receipt("q") == KeptReceipt(quiet, answer: Data("quiet".utf8)))
        #expect(try await receipts.forget(expiredAt: Self.start.addingTimeInterval(SafeRetries.keptFor + 5)) == 1)
        #expect(try await receipts.receipt("k") == nil)
        #expect(try await receipts.receipt("q") != nil)
    }
}
