import Domain
import Foundation
import Testing

@Suite("Usernames")
struct UsernameTests {
    let ada = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let bob = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b0")!)
    let name = try! Username(parsing: "ada.l")

    @Test func aUsernameHasOneSpellingWhateverTheCaseAndSpaces() throws {
        #expect(try Username(parsing: "  Ada.L ").value == "ada.l")
        #expect(try Username(parsing: "ADA_L-1") == Username(parsing: "ada_l-1"))
    }

    @Test(arguments: [
        ("", FieldProblem.required), ("ab", .tooShort(min: 3)), (String(repeating: "a", count: 33), .tooLong(max: 32)),
        ("ada@example.org", .notAUsername), ("1ada", .notAUsername), (".ada", .notAUsername), ("ada lovelace", .notAUsername),
        // Look-alikes from other scripts (Cyrillic а, fullwidth ａ) are not a second spelling of "ada".
        ("\u{0430}da", .notAUsername), ("\u{FF41}da", .notAUsername), ("ada\u{200B}", .notAUsername), ("ad\u{0000}a", .notAUsername),
    ])
    func whatIsNotAUsernameSaysWhy(_ raw: String, _ problem: FieldProblem) {
        #expect(throws: FieldError("username", problem)) { try Username(parsing: raw) }
    }

    @Test func aLoginWithoutAnAtSignIsAUsername() {
        #expect(Username.looksLikeUsername("ada.l") && !Username.looksLikeUsername("ada@example.org"))
    }

    func claim(_ command: UsernameClaimCommand, _ events: UsernameClaimEvent...) -> Result<[UsernameClaimEvent], UsernameClaimRejection> {
        Result { () throws(UsernameClaimRejection) in try UsernameClaimAggregate.decide(command, UsernameClaimAggregate.fold(events)) }
    }

    @Test func oneAccountAtATimeHasAUsername() {
        let claimed = UsernameClaimEvent.claimed(UsernameClaimed(username: name, user: ada))
        // Given nothing, when Ada claims it, then it is hers
        #expect(claim(.claim(name, by: ada)) == .success([claimed]))
        // Given it is Ada's: Ada again changes nothing, Bob is refused, Bob cannot release it
        #expect(claim(.claim(name, by: ada), claimed) == .success([]))
        #expect(claim(.claim(name, by: bob), claimed) == .failure(.taken))
        #expect(claim(.release(name, by: bob), claimed) == .success([]))
        // Given Ada released it, when Bob claims it, then it is his
        let released = UsernameClaimEvent.released(UsernameReleased(username: name, user: ada))
        #expect(claim(.release(name, by: ada), claimed) == .success([released]))
        #expect(claim(.claim(name, by: bob), claimed, released) == .success([.claimed(UsernameClaimed(username: name, user: bob))]))
    }

    @Test func anAccountChoosesChangesAndDropsItsUsername() throws {
        let email = try EmailAddress(parsing: "ada@example.org")
        let registered = UserEvent.registered(
            UserRegistered(user: ada, email: email, displayName: "Ada", country: "GB", passwordHash: "$2b$04$hash", role: .member))
        func when(_ name: Username?, _ events: UserEvent...) throws -> [UserEvent] {
            try UserAggregate.decide(.changeUsername(name), UserAggregate.fold([registered] + events))
        }
        let chosen = UserEvent.usernameChosen(UsernameChosen(user: ada, username: name))
        #expect(try when(name) == [chosen])
        #expect(try when(name, chosen).isEmpty)
        #expect(try when(nil).isEmpty)
        #expect(try when(nil, chosen) == [.usernameDropped(UsernameDropped(user: ada))])
        guard case .registered(let account) = UserAggregate.fold([registered, chosen]) else { throw CancellationError() }
        #expect(account.username == name)
        #expect(chosen.personalData == PersonalData(subject: ada, fields: ["username"]))
    }

    @Test func formsCheckTheUsernameWithTheOtherFields() {
        let signup = SignupForm(email: "ada@example.org", password: "Analytical-1", country: "GB", username: "a")
        #expect(signup.validate().problems == [FieldError("username", .tooShort(min: 3))])
        #expect(SignupForm(email: "ada@example.org", password: "Analytical-1", country: "GB", username: " ").chosenUsername == nil)
        #expect(ProfileForm(username: "").validate().change.username == .drop)
        #expect(ProfileForm(username: "Ada.L").validate().change.username == .choose(name))
        #expect(ProfileForm(username: "a@b").validate().problems == [FieldError("username", .notAUsername)])
    }
}
