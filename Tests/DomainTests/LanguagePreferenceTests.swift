import Domain
import Foundation
import Testing

/// A member's saved language: given events, when a profile change, then events.
@Suite("Language preference")
struct LanguagePreferenceTests {
    let ada = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)

    var registered: UserEvent {
        .registered(
            UserRegistered(
                user: ada, email: try! EmailAddress(parsing: "ada@example.org"), displayName: "Ada", country: "FR",
                passwordHash: "$2b$04$hash", role: .member))
    }
    func when(_ language: Language, _ events: UserEvent...) throws -> [UserEvent] {
        try UserAggregate.decide(.changeProfile(ProfileChange(language: language)), UserAggregate.fold([registered] + events))
    }
    func chosen(_ language: Language) -> UserEvent { .languageChosen(LanguageChosen(user: ada, language: language)) }

    @Test func aChoiceIsRecordedOnlyWhenItDiffers() throws {
        // Given no preference, when French is chosen, then it is recorded; chosen again, nothing.
        #expect(try when(.french) == [chosen(.french)])
        #expect(try when(.french, chosen(.french)).isEmpty)
        // English is a choice too, not the absence of one.
        #expect(try when(.english) == [chosen(.english)])
        #expect(try when(.english, chosen(.french)) == [chosen(.english)])
    }

    @Test func theAccountKeepsTheLastChoice() throws {
        guard case .registered(let before) = UserAggregate.fold([registered]) else { throw CancellationError() }
        #expect(before.language == nil)
        guard case .registered(let after) = UserAggregate.fold([registered, chosen(.french), chosen(.english)]) else {
            throw CancellationError()
        }
        #expect(after.language == .english)
    }

    @Test func aNameAndALanguageChangedTogetherAreTwoEvents() throws {
        let change = ProfileChange(displayName: "Ada L.", language: .french)
        let events = try UserAggregate.decide(.changeProfile(change), UserAggregate.fold([registered]))
        #expect(events == [.profileChanged(ProfileChanged(user: ada, displayName: "Ada L.")), chosen(.french)])
    }

    @Test func theEventIsStoredUnderItsOwnNameAndHoldsNoPersonalData() {
        #expect(chosen(.french).stored.type.rawValue == "user.language-chosen.v1")
        #expect(chosen(.french).personalData == nil)
    }

    @Test(
        "a form names the language by a tag",
        arguments: [("fr", Language.french), ("fr-CA", .french), (" FR ", .french), ("en", .english), ("en-GB", .english)])
    func formsReadTags(tag: String, language: Language) {
        let checked = ProfileForm(language: tag).validate()
        #expect(checked.problems.isEmpty && checked.change.language == language)
        #expect(SignupForm(email: "ada@example.org", password: "Analytical-1", country: "FR", language: tag).chosenLanguage == language)
    }

    @Test("a language the library does not speak is refused", arguments: ["de", "", " ", "klingon"])
    func formsRefuseOtherLanguages(tag: String) {
        let refusal = FieldError("language", .notOneOf(["en", "fr"]))
        #expect(ProfileForm(language: tag).validate().problems == [refusal])
        let signup = SignupForm(email: "ada@example.org", password: "Analytical-1", country: "FR", language: tag)
        #expect(signup.validate().problems == [refusal] && signup.chosenLanguage == nil)
    }

    @Test func aFormWithoutALanguageLeavesThePreferenceAlone() {
        #expect(ProfileForm(displayName: "Ada").validate().change.language == nil)
        #expect(SignupForm(email: "ada@example.org", password: "Analytical-1", country: "FR").validate().problems.isEmpty)
    }
}
