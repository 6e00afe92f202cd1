import Domain
import Foundation
import Testing

@Suite("Profiles, addresses and the last librarian")
struct ProfileTests {
    let ada = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let bob = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b0")!)
    let email = try! EmailAddress(parsing: "ada@example.org")
    let newEmail = try! EmailAddress(parsing: "ada@lovelace.org")

    func registered(_ role: Role = .member) -> UserEvent {
        .registered(
            UserRegistered(user: ada, email: email, displayName: "Ada", country: "GB", passwordHash: "$2b$04$hash", role: role))
    }
    func when(_ command: UserCommand, _ events: UserEvent...) -> Result<[UserEvent], UserRejection> {
        Result { () throws(UserRejection) in try UserAggregate.decide(command, UserAggregate.fold(events)) }
    }

    @Test func aProfileChangeRecordsOnlyWhatDiffersAndIsIdempotent() throws {
        let change = ProfileChange(displayName: "Ada Lovelace", country: "GB")
        let changed = UserEvent.profileChanged(ProfileChanged(user: ada, displayName: "Ada Lovelace"))
        #expect(when(.changeProfile(change), registered()) == .success([changed]))
        #expect(when(.changeProfile(change), registered(), changed) == .success([]))
        guard case .registered(let account) = UserAggregate.fold([registered(), changed]) else { throw CancellationError() }
        #expect(account.displayName == "Ada Lovelace" && account.country == "GB")
        #expect(when(.changeProfile(change)) == .failure(.notRegistered))
    }

    @Test func anAddressChangeNamesBothAddressesOnce() throws {
        let changed = UserEvent.emailChanged(EmailChanged(user: ada, email: newEmail, previous: email))
        #expect(when(.changeEmail(newEmail), registered()) == .success([changed]))
        #expect(when(.changeEmail(newEmail), registered(), changed) == .success([]))
        #expect(when(.changeEmail(email), registered()) == .success([]))
        guard case .registered(let account) = UserAggregate.fold([registered(), changed]) else { throw CancellationError() }
        #expect(account.email == newEmail)
    }

    @Test func profileEventsDeclareTheirPersonalData() {
        let profile = UserEvent.profileChanged(ProfileChanged(user: ada, displayName: "A"))
        #expect(profile.personalData == PersonalData(subject: ada, fields: ["displayName", "country"]))
        let address = UserEvent.emailChanged(EmailChanged(user: ada, email: newEmail, previous: email))
        #expect(address.personalData == PersonalData(subject: ada, fields: ["email", "previous"]))
        #expect(EmailClaimEvent.released(EmailReleased(email: email, user: ada)).personalData?.fields == ["email"])
    }

    @Test func theLastLibrarianCannotBeDemoted() {
        #expect(when(.changeRole(.member, otherLibrarians: 0), registered(.librarian)) == .failure(.lastLibrarian))
        #expect(
            when(.changeRole(.member, otherLibrarians: 1), registered(.librarian))
                == .success([.roleChanged(RoleChanged(user: ada, role: .member))]))
        // Staying a librarian, or a member, breaks no rule whatever the count.
        #expect(when(.changeRole(.librarian, otherLibrarians: 0), registered(.librarian)) == .success([]))
        #expect(when(.changeRole(.member, otherLibrarians: 0), registered()) == .success([]))
    }

    @Test func theRuleCoversClosingToo() throws {
        guard case .registered(let librarian) = UserAggregate.fold([registered(.librarian)]) else { throw CancellationError() }
        #expect(UserRules.lastLibrarian(librarian, staysLibrarian: false, otherLibrarians: 0) == .lastLibrarian)
        #expect(UserRules.lastLibrarian(librarian, staysLibrarian: false, otherLibrarians: 2) == nil)
        guard case .registered(let member) = UserAggregate.fold([registered()]) else { throw CancellationError() }
        #expect(UserRules.lastLibrarian(member, staysLibrarian: false, otherLibrarians: 0) == nil)
    }

    @Test func aProfileFormIsCheckedAsTheSignupForm() {
        let empty = ProfileForm().validate()
        #expect(empty.change == ProfileChange() && empty.email == nil && empty.problems.isEmpty)
        let good = ProfileForm(displayName: "  Ada L. ", country: "gb", email: " ADA@Lovelace.org").validate()
        #expect(good.change == ProfileChange(displayName: "Ada L.", country: "GB") && good.email == newEmail && good.problems.isEmpty)
        let bad = ProfileForm(displayName: " ", country: "Britain", email: "nope").validate()
        #expect(bad.problems.map(\.field) == ["email", "displayName", "country"])
        #expect(
            ProfileForm(displayName: String(repeating: "x", count: 101)).validate().problems == [
                FieldError("displayName", .tooLong(max: 100))
            ])
    }

    @Test func aReleasedAddressIsFreeAndOnlyItsOwnerReleasesIt() throws {
        let claimed = EmailClaimAggregate.fold([.claimed(EmailClaimed(email: email, user: ada))])
        #expect(try EmailClaimAggregate.decide(.release(email, by: bob), claimed) == [])
        let released = try EmailClaimAggregate.decide(.release(email, by: ada), claimed)
        #expect(released == [.released(EmailReleased(email: email, user: ada))])
        let free = EmailClaimAggregate.fold(released, from: claimed)
        #expect(free.owner == nil)
        #expect(try EmailClaimAggregate.decide(.release(email, by: ada), free) == [])
        #expect(try EmailClaimAggregate.decide(.claim(email, by: bob), free) == [.claimed(EmailClaimed(email: email, user: bob))])
    }
}
