import Domain
import Foundation
import Testing

/// App keys: issued to librarians only, revoked for good, every decision idempotent.
@Suite("App keys")
struct AppKeyTests {
    let issued = AppKeyIssued(
        key: AppKeyID(UUID(uuidString: "00000000-0000-0000-0000-00000000000a")!),
        user: UserID(UUID(uuidString: "00000000-0000-0000-0000-00000000000b")!), app: AppKeyIssued.prolific,
        digest: String(repeating: "c", count: 64))

    func when(_ command: AppKeyCommand, _ state: AppKeyState) -> Result<[AppKeyEvent], AppKeyRejection> {
        Result { () throws(AppKeyRejection) in try AppKeyAggregate.decide(command, state) }
    }

    @Test func aLibrarianGetsAKeyAndAMemberDoesNot() {
        #expect(when(.issue(issued, role: .librarian), .absent) == .success([.issued(issued)]))
        #expect(when(.issue(issued, role: .member), .absent) == .failure(.notALibrarian))
    }

    @Test func issuingTheSameKeyAgainDecidesNothingAndAnotherIsRefused() {
        let live = AppKeyAggregate.fold([.issued(issued)])
        #expect(live == .live(issued))
        #expect(when(.issue(issued, role: .librarian), live) == .success([]))
        let other = AppKeyIssued(key: issued.key, user: issued.user, app: issued.app, digest: String(repeating: "d", count: 64))
        #expect(when(.issue(other, role: .librarian), live) == .failure(.idInUse))
    }

    @Test func aRevokedKeyStaysRevokedAndCannotBeIssuedAgain() {
        let live = AppKeyAggregate.fold([.issued(issued)])
        let revoked = AppKeyEvent.revoked(AppKeyRevoked(key: issued.key))
        #expect(when(.revoke, live) == .success([revoked]))
        let ended = AppKeyAggregate.fold([revoked], from: live)
        #expect(ended == .revoked(issued))
        #expect(when(.revoke, ended) == .success([]))
        #expect(when(.issue(issued, role: .librarian), ended) == .failure(.idInUse))
    }

    @Test func aKeyNeverIssuedCannotBeRevoked() {
        #expect(when(.revoke, .absent) == .failure(.notIssued))
    }

    @Test func theLogStoresTheDigestAsASecretUnderStableNames() {
        #expect(AppKeyEvent.StoredType.allCases.map(\.rawValue) == ["app-key.issued.v1", "app-key.revoked.v1"])
        #expect(AppKeyEvent.secretFields(of: .issued) == ["digest"])
        #expect(AppKeyEvent.issued(issued).personalData == nil)
    }
}
