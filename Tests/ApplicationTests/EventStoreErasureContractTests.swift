import Application
import Domain
import Foundation
import Testing

/// The event store port's contract for personal data, run against every adapter: what is sealed
/// reads back as written while the member's key exists, reads as erased once an event erases the
/// member, and no personal data of an erased member can be appended again.
@Suite("Event store contract: personal data")
struct EventStoreErasureContractTests {
    static let ada = UserID(UUID(uuidString: "0192f000-0000-7000-8000-0000000000a1")!)

    static func registered(_ user: UserID = ada, _ name: String = "ada") -> DomainEvent {
        .user(
            .registered(
                UserRegistered(
                    user: user, email: try! EmailAddress(parsing: "\(name)@example.org"), displayName: name, country: "GB",
                    passwordHash: "$2b$04$hash", role: .member)))
    }

    static func append(_ store: any EventStore, _ stream: StreamName, _ events: DomainEvent...) async throws {
        try await store.append([StreamAppend(stream, expected: .any, events: events.enumerated().map { PendingEvent($1, metadata($0)) })])
    }

    @Test("personal data reads back as written, and erased once its member is", arguments: StoreFactory.all)
    func sealedThenErased(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let bob = UserID(UUID())
        try await Self.append(store, .user(Self.ada), Self.registered())
        try await Self.append(store, .user(bob), Self.registered(bob, "bob"))
        #expect(try await store.read(.user(Self.ada)).map(\.event) == [Self.registered()])

        try await Self.append(store, .user(Self.ada), .user(.closed(UserClosed(user: Self.ada))))
        guard case .user(.registered(let erased)) = try await store.read(.user(Self.ada)).first?.event else {
            throw CancellationError()
        }
        #expect(erased.user == Self.ada && erased.email == .erased && erased.displayName == .erased && erased.passwordHash == .erased)
        #expect(erased.role == .member)  // what is not personal stays
        #expect(try await store.readAll(after: 0, limit: 10).count == 3)
        // Another member's data is untouched.
        #expect(try await store.read(.user(bob)).map(\.event) == [Self.registered(bob, "bob")])
    }

    @Test("an erased member's personal data is refused, and the whole append with it", arguments: StoreFactory.all)
    func erasedMembersDataIsRefused(factory: StoreFactory) async throws {
        let store = try await factory.make()
        try await Self.append(store, .user(Self.ada), Self.registered(), .user(.closed(UserClosed(user: Self.ada))))
        let claimed = DomainEvent.emailClaim(.claimed(EmailClaimed(email: try EmailAddress(parsing: "ada@example.org"), user: Self.ada)))
        await #expect(throws: PersonalDataOfErasedMember(member: Self.ada)) {
            try await store.append([
                StreamAppend("other", expected: .noStream, events: [pending(1)]),
                StreamAppend("claim", expected: .noStream, events: [PendingEvent(claimed, metadata(2))]),
            ])
        }
        #expect(try await store.read("other").isEmpty)
        #expect(try await store.read("claim").isEmpty)
        // Events without personal data about the member still append (a book returned, a session ended).
        try await Self.append(store, "other", bookAdded(3))
    }

    @Test("claim streams are named by a keyed digest, stable within a store", arguments: StoreFactory.all)
    func claimNames(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let email = try EmailAddress(parsing: "Ada@Example.org")
        let name = store.claimNames.email(email)
        #expect(name == store.claimNames.email(try EmailAddress(parsing: "ada@example.org")))
        // The address is not in the name ("ada" alone could be hex: 1.5% of digests hold it).
        #expect(name.rawValue.hasPrefix("email-hmac-") && !name.rawValue.lowercased().contains("example"))
        #expect(name != ClaimNames.unkeyed(personalCipher).email(email), "a store keeps a secret of its own")
    }
}
