import Domain
import Foundation
import Testing

@Suite("Passwords: changes, reset codes and resets")
struct PasswordTests {
    let id = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let phone = SessionID(UUID(uuidString: "00000000-0000-0000-0000-0000000000c1")!)
    let laptop = SessionID(UUID(uuidString: "00000000-0000-0000-0000-0000000000c2")!)
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    var registered: UserEvent {
        .registered(
            UserRegistered(
                user: id, email: try! EmailAddress(parsing: "ada@example.org"), displayName: "Ada", country: "GB",
                passwordHash: "$2b$04$old", role: .member))
    }
    func opened(_ session: SessionID) -> UserEvent {
        .sessionOpened(SessionOpened(user: id, session: session, tokenDigest: "d-\(session)", expiresAt: t0.addingTimeInterval(86_400)))
    }
    func closed(_ session: SessionID) -> UserEvent { .sessionClosed(SessionClosed(user: id, session: session)) }
    func issued(_ digest: String, at: Date) -> UserEvent {
        .resetCodeIssued(ResetCodeIssued(user: id, codeDigest: digest, expiresAt: at.addingTimeInterval(ResetCode.lifetime)))
    }

    func given(_ events: UserEvent...) -> UserState { UserAggregate.fold(events) }
    func when(_ command: UserCommand, _ state: UserState) -> Result<[UserEvent], UserRejection> {
        Result { () throws(UserRejection) in try UserAggregate.decide(command, state) }
    }

    @Test func aChangeRecordsTheNewHashAndEndsEveryOtherSession() {
        let state = given(registered, opened(phone), opened(laptop))
        #expect(
            when(.changePassword(hash: "$2b$04$new", keeping: laptop), state)
                == .success([.passwordChanged(PasswordChanged(user: id, passwordHash: "$2b$04$new")), closed(phone)]))
        guard
            case .registered(let account) = UserAggregate.fold(
                [.passwordChanged(PasswordChanged(user: id, passwordHash: "h2"))], from: state)
        else {
            Issue.record("not registered")
            return
        }
        #expect(account.passwordHash == "h2" && account.sessions == [phone, laptop])
    }

    @Test func aChangeVoidsAnUnusedResetCode() {
        let state = given(registered, issued("abc", at: t0), .passwordChanged(PasswordChanged(user: id, passwordHash: "h2")))
        #expect(when(.resetPassword(codeDigest: "abc", hash: "h3", at: t0), state) == .failure(.resetCodeRefused))
    }

    @Test func aCodeSetsThePasswordOnceAndEndsEverySession() {
        let state = given(registered, opened(phone), opened(laptop), issued("abc", at: t0))
        let reset = UserEvent.passwordReset(PasswordReset(user: id, passwordHash: "h2"))
        #expect(
            when(.resetPassword(codeDigest: "abc", hash: "h2", at: t0.addingTimeInterval(60)), state)
                == .success([reset, closed(phone), closed(laptop)]))
        let after = UserAggregate.fold([reset, closed(phone), closed(laptop)], from: state)
        #expect(when(.resetPassword(codeDigest: "abc", hash: "h3", at: t0.addingTimeInterval(120)), after) == .failure(.resetCodeRefused))
    }

    @Test(
        "a wrong, expired or replaced code is refused alike",
        arguments: [("abd", 60.0), ("abc", ResetCode.lifetime), ("abc", ResetCode.lifetime + 1), ("ab", 60)])
    func refusedCodes(digest: String, after seconds: TimeInterval) {
        let state = given(registered, issued("abc", at: t0))
        #expect(
            when(.resetPassword(codeDigest: digest, hash: "h", at: t0.addingTimeInterval(seconds)), state) == .failure(.resetCodeRefused))
    }

    @Test func aNewCodeReplacesTheOlderOne() {
        let state = given(registered, issued("old", at: t0), issued("new", at: t0.addingTimeInterval(60)))
        #expect(when(.resetPassword(codeDigest: "old", hash: "h", at: t0.addingTimeInterval(120)), state) == .failure(.resetCodeRefused))
        #expect((try? when(.resetPassword(codeDigest: "new", hash: "h", at: t0.addingTimeInterval(120)), state).get())?.isEmpty == false)
    }

    @Test func withoutACodeOrAnAccountNothingResets() {
        #expect(when(.resetPassword(codeDigest: "abc", hash: "h", at: t0), given(registered)) == .failure(.resetCodeRefused))
        #expect(when(.resetPassword(codeDigest: "abc", hash: "h", at: t0), given()) == .failure(.notRegistered))
        #expect(when(.issueResetCode(digest: "abc", expiresAt: t0), given()) == .failure(.notRegistered))
    }

    @Test func digestsCompareByteForByte() {
        #expect(PasswordRules.sameDigest("00ff", "00ff"))
        #expect(!PasswordRules.sameDigest("00ff", "00fe"))
        #expect(!PasswordRules.sameDigest("00ff", "00ff0"))
        #expect(!PasswordRules.sameDigest("", "0"))
    }

    @Test(
        "codes are read as Crockford's base32 reads them",
        arguments: [
            ("7K3M-Q9TD-X2FB", "7K3MQ9TDX2FB"), ("7k3m q9td x2fb", "7K3MQ9TDX2FB"), ("7K3MQ9TDX2FB", "7K3MQ9TDX2FB"),
            ("OIL0-1111-0000", "011011110000"),
        ])
    func codesAsTyped(typed: String, normalized: String) {
        #expect(ResetCode.normalized(typed) == normalized)
    }

    @Test("what cannot be a code", arguments: ["", "7K3M-Q9TD-X2F", "7K3M-Q9TD-X2FBA", "7K3M-Q9TD-X2FU", "7K3M-Q9TD-X2F!"])
    func notCodes(typed: String) {
        #expect(ResetCode.normalized(typed) == nil)
    }

    @Test func codesAreWrittenInGroupsOfFour() {
        #expect(ResetCode.format([7, 19, 3, 20, 23, 9, 26, 13, 29, 2, 15, 11]) == "7K3M-Q9TD-X2FB")
        #expect(ResetCode.normalized(ResetCode.format(Array(0..<12))) == "0123456789AB")
    }

    @Test func aNewPasswordFollowsTheSignupPolicyUnderItsOwnName() {
        #expect(PasswordPolicy.problems("short", field: "newPassword").map(\.field) == ["newPassword", "newPassword", "newPassword"])
        #expect(PasswordPolicy.problems("Valid-Pass1", field: "newPassword").isEmpty)
    }
}
