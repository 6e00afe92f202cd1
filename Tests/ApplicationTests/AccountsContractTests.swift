import Application
import Domain
import Foundation
import Testing

extension LibraryUnderTest {
    /// The accounts read model of this adapter.
    var accounts: any Accounts { sqlite?.accounts ?? postgres!.accounts }
}

/// The accounts read model's contract (`Accounts`), on every store adapter: user events go in
/// through the store; accounts, librarians and open sessions come out of the port the same way,
/// and a closed account leaves nothing of its member behind, even after a rebuild.
@Suite("Accounts read model (contract)")
struct AccountsContractTests {
    static let ada = UserID(uuid(0xa1))
    static let bob = UserID(uuid(0xa2))
    static let cy = UserID(uuid(0xa3))
    static let expires = Date(timeIntervalSince1970: 1_800_000_000.25)
    /// When `lib.append` records events (`metadata()`).
    static let recorded = Date(timeIntervalSince1970: 1_790_000_000)

    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))! }
    static func email(_ text: String) -> EmailAddress { try! EmailAddress(parsing: text) }

    static func registered(_ user: UserID, _ address: String, name: String, role: Role = .member) -> DomainEvent {
        .user(
            .registered(
                UserRegistered(user: user, email: email(address), displayName: name, country: "GB", passwordHash: "$2b$04$hash", role: role)
            ))
    }

    static func sessionOpened(_ user: UserID, _ n: Int) -> DomainEvent {
        .user(
            .sessionOpened(SessionOpened(user: user, session: SessionID(uuid(0x5e00 + n)), tokenDigest: "digest-\(n)", expiresAt: expires)))
    }

    /// Ada (a librarian with a card, a username and French chosen), Bob, and Cy.
    static func threeAccounts(_ lib: LibraryUnderTest) async throws {
        try await lib.append(
            .user(ada), registered(ada, "ada@example.org", name: "Ada", role: .librarian),
            .user(.cardIssued(CardIssued(user: ada, card: CardNumber(serial: 2_741_038)))),
            .user(.usernameChosen(UsernameChosen(user: ada, username: try Username(parsing: "ada.l")))),
            .user(.languageChosen(LanguageChosen(user: ada, language: .french))))
        // Bytes order the list as on SQLite: "zed" before "émile" (a locale's order would put é first).
        try await lib.append(.user(bob), registered(bob, "\u{E9}mile@example.org", name: "\u{C9}mile"))
        try await lib.append(.user(cy), registered(cy, "zed@example.org", name: "Zed"))
    }

    @Test("accounts listed by address, byte by byte; pages walk that order; an account reads back whole", arguments: LibraryFactory.all)
    func list(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.threeAccounts(lib)
        let every = try await lib.accounts.list(try PageRequest())
        #expect(every.items.map(\.id) == [Self.ada, Self.cy, Self.bob] && every.total == 3)
        for limit in [1, 2, 100] {
            let walked = try await walkPages(limit: limit) { try await lib.accounts.list($0) }
            #expect(walked.items == every.items && walked.total == 3)
        }
        let ada = AccountSummary(
            id: Self.ada, email: Self.email("ada@example.org"), displayName: "Ada", country: "GB", role: .librarian,
            registeredAt: Self.recorded, cardNumber: CardNumber(serial: 2_741_038), username: try Username(parsing: "ada.l"),
            language: .french)
        #expect(try await lib.accounts.account(Self.ada) == ada)
        let bob = try #require(try await lib.accounts.account(Self.bob))
        #expect(
            bob.displayName == "\u{C9}mile" && bob.cardNumber == nil && bob.username == nil && bob.language == nil && bob.role == .member)
        #expect(try await lib.accounts.account(UserID(Self.uuid(0x99))) == nil)
        await lib.postgres?.close()
    }

    @Test("profile, address, role and username changes show; a profile change keeps what it leaves out", arguments: LibraryFactory.all)
    func changes(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.threeAccounts(lib)
        try await lib.append(
            .user(Self.ada), .user(.profileChanged(ProfileChanged(user: Self.ada, displayName: "Ada L."))),
            .user(.profileChanged(ProfileChanged(user: Self.ada, country: "FR"))),
            .user(
                .emailChanged(EmailChanged(user: Self.ada, email: Self.email("zz@example.org"), previous: Self.email("ada@example.org")))),
            .user(.roleChanged(RoleChanged(user: Self.ada, role: .member))), .user(.usernameDropped(UsernameDropped(user: Self.ada))),
            .user(.languageChosen(LanguageChosen(user: Self.ada, language: .english))))
        let ada = try #require(try await lib.accounts.account(Self.ada))
        #expect(ada.displayName == "Ada L." && ada.country == "FR" && ada.email == Self.email("zz@example.org"))
        #expect(ada.role == .member && ada.username == nil && ada.language == .english && ada.cardNumber == CardNumber(serial: 2_741_038))
        #expect(try await lib.accounts.list(try PageRequest()).items.map(\.id) == [Self.cy, Self.ada, Self.bob])
        await lib.postgres?.close()
    }

    @Test("librarians by id, as roles change", arguments: LibraryFactory.all)
    func librarians(library: LibraryFactory) async throws {
        let lib = try await library.make()
        #expect(try await lib.accounts.librarians().isEmpty)
        try await Self.threeAccounts(lib)
        try await lib.append(.user(Self.cy), .user(.roleChanged(RoleChanged(user: Self.cy, role: .librarian))))
        #expect(try await lib.accounts.librarians() == [Self.ada, Self.cy])
        try await lib.append(.user(Self.ada), .user(.roleChanged(RoleChanged(user: Self.ada, role: .member))))
        #expect(try await lib.accounts.librarians() == [Self.cy])
        await lib.postgres?.close()
    }

    @Test("an open session is found by its token's digest; a closed one is not", arguments: LibraryFactory.all)
    func sessions(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.threeAccounts(lib)
        try await lib.append(.user(Self.ada), Self.sessionOpened(Self.ada, 1), Self.sessionOpened(Self.ada, 2))
        try await lib.append(.user(Self.bob), Self.sessionOpened(Self.bob, 3))
        #expect(
            try await lib.accounts.session(digest: "digest-1")
                == SessionRecord(session: SessionID(Self.uuid(0x5e01)), user: Self.ada, expiresAt: Self.expires))
        try await lib.append(.user(Self.ada), .user(.sessionClosed(SessionClosed(user: Self.ada, session: SessionID(Self.uuid(0x5e01))))))
        #expect(try await lib.accounts.session(digest: "digest-1") == nil)
        #expect(try await lib.accounts.session(digest: "digest-2")?.session == SessionID(Self.uuid(0x5e02)))
        #expect(try await lib.accounts.session(digest: "digest-3")?.user == Self.bob)
        #expect(try await lib.accounts.session(digest: "nothing") == nil)
        // The session and its account, read together: the same session, the account as `account` reads it.
        let bob = try #require(try await lib.accounts.signedIn(digest: "digest-3"))
        #expect(bob.session == SessionRecord(session: SessionID(Self.uuid(0x5e03)), user: Self.bob, expiresAt: Self.expires))
        #expect(bob.account == (try await lib.accounts.account(Self.bob)) && bob.account?.id == Self.bob)
        #expect(try await lib.accounts.signedIn(digest: "digest-1") == nil)
        #expect(try await lib.accounts.signedIn(digest: "nothing") == nil)
        await lib.postgres?.close()
    }

    @Test(
        "a closed account goes with its sessions, and stays gone when the log is replayed after its erasure",
        arguments: LibraryFactory.all)
    func closing(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.threeAccounts(lib)
        try await lib.append(.user(Self.ada), Self.sessionOpened(Self.ada, 1))
        try await lib.append(.user(Self.bob), Self.sessionOpened(Self.bob, 2))
        try await lib.append(.user(Self.ada), .user(.closed(UserClosed(user: Self.ada))))
        func remaining() async throws {
            #expect(try await lib.accounts.account(Self.ada) == nil)
            #expect(try await lib.accounts.session(digest: "digest-1") == nil)
            #expect(try await lib.accounts.librarians().isEmpty)
            let left = try await lib.accounts.list(try PageRequest())
            #expect(left.items.map(\.id) == [Self.cy, Self.bob] && left.total == 2)
            #expect(try await lib.accounts.session(digest: "digest-2")?.user == Self.bob)
        }
        try await remaining()
        let before = try await lib.accounts.list(try PageRequest()).items
        try await lib.rebuild()  // Ada's registration, card and username now read as erased
        try await remaining()
        #expect(try await lib.accounts.list(try PageRequest()).items == before)
        await lib.postgres?.close()
    }
}
