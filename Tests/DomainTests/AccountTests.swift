import Domain
import Foundation
import Testing

@Suite("Signup rules")
struct SignupRuleTests {
    @Test(
        "each password rule fails on its own",
        arguments: [
            ("Sh0rt!", [FieldProblem.tooShort(min: 8)]),
            ("lowercase-only!", [.needsUppercase]),
            ("NoSpecials123", [.needsSpecialCharacter]),
            ("short", [.tooShort(min: 8), .needsUppercase, .needsSpecialCharacter]),
            ("Aa!" + String(repeating: "x", count: 70), [.tooManyBytes(max: 72)]),
            ("Valid-Pass1", []),
            ("Élan vital!", []),
        ])
    func passwordRules(password: String, problems: [FieldProblem]) {
        #expect(PasswordPolicy.problems(password).map(\.problem) == problems)
    }

    @Test(
        "practical email syntax, normalised",
        arguments: [
            ("  Ada@Example.ORG ", "ada@example.org"),
            ("a.b+tag@sub.example.co.uk", "a.b+tag@sub.example.co.uk"),
        ])
    func validEmails(raw: String, normalised: String) throws {
        #expect(try EmailAddress(parsing: raw).value == normalised)
    }

    @Test(
        "bad emails are refused",
        arguments: [
            "", "ada", "@example.org", "ada@example", "ada@@example.org",
            "a da@example.org", "ada@.example.org", "ada@example.", "ada@exa..mple.org",
        ])
    func invalidEmails(raw: String) {
        #expect(throws: FieldError.self) { try EmailAddress(parsing: raw) }
    }

    @Test func overlongEmailsAreRefused() {
        let long = String(repeating: "a", count: 250) + "@x.org"
        #expect(throws: FieldError("email", .tooLong(max: 254))) { try EmailAddress(parsing: long) }
    }

    @Test func aFormReportsEveryProblemAtOnce() {
        let form = SignupForm(email: "nope", password: "weak", country: "France")
        #expect(form.validate().problems.map(\.field) == ["email", "password", "password", "password", "country"])
        let good = SignupForm(email: "Ada@Example.org", password: "Valid-Pass1", country: "fr").validate()
        #expect(good.problems.isEmpty && good.country == "FR" && good.name == "ada")
    }
}

@Suite("User aggregate")
struct UserTests {
    let id = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let session = SessionID(UUID(uuidString: "00000000-0000-0000-0000-0000000000c1")!)
    var registration: UserRegistered {
        UserRegistered(
            user: id, email: try! EmailAddress(parsing: "ada@example.org"), displayName: "Ada", country: "GB",
            passwordHash: "$2b$04$hash", role: .member)
    }
    let expiry = Date(timeIntervalSince1970: 2_000_000_000)

    func given(_ events: UserEvent...) -> UserState { UserAggregate.fold(events) }
    func when(_ command: UserCommand, _ state: UserState) -> Result<[UserEvent], UserRejection> {
        Result { () throws(UserRejection) in try UserAggregate.decide(command, state) }
    }

    @Test func registeringTwiceDecidesNothingTheSecondTime() {
        #expect(when(.register(registration), given()) == .success([.registered(registration)]))
        #expect(when(.register(registration), given(.registered(registration))) == .success([]))
    }

    @Test func rolesChangeOnlyWhenDifferent() {
        #expect(
            when(.changeRole(.librarian, otherLibrarians: 0), given(.registered(registration)))
                == .success([.roleChanged(RoleChanged(user: id, role: .librarian))]))
        #expect(when(.changeRole(.member, otherLibrarians: 0), given(.registered(registration))) == .success([]))
        #expect(when(.changeRole(.member, otherLibrarians: 1), given()) == .failure(.notRegistered))
    }

    @Test func sessionsOpenAndCloseOnce() {
        let opened = UserEvent.sessionOpened(SessionOpened(user: id, session: session, tokenDigest: "d", expiresAt: expiry))
        let closed = UserEvent.sessionClosed(SessionClosed(user: id, session: session))
        #expect(when(.openSession(session, tokenDigest: "d", expiresAt: expiry), given(.registered(registration))) == .success([opened]))
        #expect(when(.closeSession(session), given(.registered(registration), opened)) == .success([closed]))
        #expect(when(.closeSession(session), given(.registered(registration), opened, closed)) == .success([]))
        #expect(when(.closeAllSessions, given(.registered(registration), opened)) == .success([closed]))
    }
}

@Suite("Email claims and login throttling")
struct EmailClaimTests {
    let email = try! EmailAddress(parsing: "ada@example.org")
    let ada = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let bob = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b0")!)
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anAddressBelongsToOneAccount() throws {
        let claimed = EmailClaimAggregate.fold([.claimed(EmailClaimed(email: email, user: ada))])
        #expect(throws: EmailClaimRejection.taken) { try EmailClaimAggregate.decide(.claim(email, by: bob), claimed) }
        #expect(try EmailClaimAggregate.decide(.claim(email, by: ada), claimed) == [])
    }

    @Test func fiveFailuresWithinTheWindowCloseLoginsUntilItEnds() {
        let throttle = LoginThrottle()
        let failures = (0..<5).map { t0.addingTimeInterval(Double($0) * 60) }
        #expect(throttle.closedUntil(Array(failures.dropLast()), now: t0.addingTimeInterval(300)) == nil)
        #expect(throttle.closedUntil(failures, now: t0.addingTimeInterval(300)) == t0.addingTimeInterval(900))
        #expect(throttle.closedUntil(failures, now: t0.addingTimeInterval(899)) == t0.addingTimeInterval(900))
        #expect(throttle.closedUntil(failures, now: t0.addingTimeInterval(900)) == nil)
    }

    @Test func loginEventsAreATrailAndDoNotChangeTheOwner() {
        let state = EmailClaimAggregate.fold([
            .claimed(EmailClaimed(email: email, user: ada)),
            .loginFailed(LoginAttempted(email: email, at: t0)), .loginSucceeded(LoginAttempted(email: email, at: t0)),
        ])
        #expect(state == EmailClaimState(owner: ada))
    }

    @Test(
        "one address has one spelling: composed, decomposed and upper-case are the same",
        arguments: [
            "zoe\u{308}@example.org", "ZOË@EXAMPLE.ORG", " Zoe\u{308}@Example.org ",
        ])
    func emailsAreNormalised(spelling: String) throws {
        let address = try EmailAddress(parsing: spelling)
        #expect(Array(address.value.unicodeScalars) == Array("zo\u{EB}@example.org".unicodeScalars))
    }

    @Test(
        "invisible characters are refused in addresses",
        arguments: [
            "lib\u{200B}@example.org", "lib\u{200D}@example.org", "\u{202E}gro.elpmaxe@bil", "lib@exa\u{FEFF}mple.org",
        ])
    func invisibleCharactersInAddresses(spelling: String) {
        #expect(throws: FieldError("email", .invisibleCharacters)) { try EmailAddress(parsing: spelling) }
    }

    @Test func passwordsAreComposedBeforeTheyAreHashed() {
        #expect(Array(PasswordPolicy.normalized("Cafe\u{301}-Pass").unicodeScalars) == Array("Caf\u{E9}-Pass".unicodeScalars))
    }
}
