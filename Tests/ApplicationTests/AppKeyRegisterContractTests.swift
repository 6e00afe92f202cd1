import Application
import Domain
import Foundation
import Testing

extension LibraryUnderTest {
    /// The app-key read model of this adapter.
    var appKeys: any AppKeyRegister { sqlite?.appKeys ?? postgres!.appKeys }
}

/// The app-key read model's contract (`AppKeyRegister`), on every store adapter: a key is found
/// by its digest, revoked or not, and an app is in use while one of its keys is live and held by
/// a librarian's open account.
@Suite("App keys read model (contract)")
struct AppKeyRegisterContractTests {
    typealias A = AccountsContractTests
    static let adasKey = AppKeyID(A.uuid(0xc1))
    static let cysKey = AppKeyID(A.uuid(0xc2))
    static let bobsKey = AppKeyID(A.uuid(0xc3))

    static func issue(_ key: AppKeyID, to user: UserID, app: String = AppKeyIssued.prolific, _ lib: LibraryUnderTest) async throws {
        try await lib.append(.appKey(key), .appKey(.issued(AppKeyIssued(key: key, user: user, app: app, digest: "digest-\(key)"))))
    }

    static func revoke(_ key: AppKeyID, _ lib: LibraryUnderTest) async throws {
        try await lib.append(.appKey(key), .appKey(.revoked(AppKeyRevoked(key: key))))
    }

    static func role(_ user: UserID, _ role: Role, _ lib: LibraryUnderTest) async throws {
        try await lib.append(.user(user), .user(.roleChanged(RoleChanged(user: user, role: role))))
    }

    @Test("a key is found by its digest, revoked or not; an unknown digest finds none", arguments: LibraryFactory.all)
    func byDigest(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await A.threeAccounts(lib)
        try await Self.issue(Self.adasKey, to: A.ada, lib)
        try await Self.issue(Self.cysKey, to: A.cy, app: "other", lib)
        #expect(
            try await lib.appKeys.appKey(digest: "digest-\(Self.adasKey)")
                == AppKeyRecord(key: Self.adasKey, user: A.ada, app: AppKeyIssued.prolific, revoked: false))
        try await Self.revoke(Self.adasKey, lib)
        #expect(try await lib.appKeys.appKey(digest: "digest-\(Self.adasKey)")?.revoked == true)
        #expect(
            try await lib.appKeys.appKey(digest: "digest-\(Self.cysKey)")
                == AppKeyRecord(key: Self.cysKey, user: A.cy, app: "other", revoked: false))
        #expect(try await lib.appKeys.appKey(digest: "digest-unknown") == nil)
        try await lib.rebuild()
        #expect(try await lib.appKeys.appKey(digest: "digest-\(Self.adasKey)")?.revoked == true)
        await lib.postgres?.close()
    }

    @Test(
        "an app is in use while a live key of it is held by a librarian: not once revoked, demoted or closed, nor for a member",
        arguments: LibraryFactory.all)
    func anyLive(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await A.threeAccounts(lib)  // Ada is the librarian
        #expect(try await !lib.appKeys.anyLive(app: AppKeyIssued.prolific))
        try await Self.issue(Self.bobsKey, to: A.bob, lib)
        #expect(try await !lib.appKeys.anyLive(app: AppKeyIssued.prolific), "Bob is a member")
        try await Self.issue(Self.adasKey, to: A.ada, lib)
        #expect(try await lib.appKeys.anyLive(app: AppKeyIssued.prolific))
        #expect(try await !lib.appKeys.anyLive(app: "other"))
        try await Self.role(A.ada, .member, lib)
        #expect(try await !lib.appKeys.anyLive(app: AppKeyIssued.prolific))
        try await Self.role(A.ada, .librarian, lib)
        #expect(try await lib.appKeys.anyLive(app: AppKeyIssued.prolific))
        try await Self.revoke(Self.adasKey, lib)
        #expect(try await !lib.appKeys.anyLive(app: AppKeyIssued.prolific))

        try await Self.role(A.cy, .librarian, lib)
        try await Self.issue(Self.cysKey, to: A.cy, lib)
        #expect(try await lib.appKeys.anyLive(app: AppKeyIssued.prolific))
        try await lib.append(.user(A.cy), .user(.closed(UserClosed(user: A.cy))))
        #expect(try await !lib.appKeys.anyLive(app: AppKeyIssued.prolific), "Cy's account is closed")
        try await lib.rebuild()
        #expect(try await !lib.appKeys.anyLive(app: AppKeyIssued.prolific))
        #expect(try await lib.appKeys.appKey(digest: "digest-\(Self.cysKey)")?.user == A.cy)
        await lib.postgres?.close()
    }
}
