import Application
import Domain
import Foundation
import GRDB
import Testing

/// A member's saved language through the use cases, on the real SQLite store: the read model
/// follows, a rebuild and audit verify agree with it.
@Suite("Language preference on SQLite")
struct LanguagePreferenceUseCaseTests {
    let t: TestLibrary
    var accounts: AccountUseCases { t.library.accounts }
    init() throws { t = try TestLibrary() }

    func signUp(_ email: String, language: String? = nil) async throws -> SignedIn {
        let form = SignupForm(email: email, password: "Analytical-1", displayName: "Ada", country: "FR", language: language)
        return try await accounts.signUp.execute(form, by: .anonymous)
    }

    func principal(_ signedIn: SignedIn) async throws -> Principal {
        try await accounts.authenticate.execute(token: try #require(signedIn.session?.token))
    }

    @Test func aMemberWithoutAChoiceHasNoPreferenceUntilTheyChooseOne() async throws {
        let signedIn = try await signUp("ada@example.org")
        #expect(signedIn.account.language == nil)
        let ada = try await principal(signedIn)
        let french = try await accounts.editProfile.execute(ProfileForm(language: "fr-CA"), by: ada)
        #expect(french.language == .french && french.displayName == "Ada")
        #expect(try await accounts.showMe.execute(by: ada).language == .french)
        // Chosen again, nothing is recorded.
        let before = try await t.database.eventStore.read(.user(signedIn.account.id)).count
        _ = try await accounts.editProfile.execute(ProfileForm(language: "fr"), by: ada)
        #expect(try await t.database.eventStore.read(.user(signedIn.account.id)).count == before)
        #expect(try await accounts.editProfile.execute(ProfileForm(language: "en"), by: ada).language == .english)
    }

    @Test func aSignupInFrenchRecordsThePreferenceInTheSameAppend() async throws {
        let signedIn = try await signUp("ada@example.org", language: "fr")
        #expect(signedIn.account.language == .french)
        let events = try await t.database.eventStore.read(.user(signedIn.account.id)).map(\.event)
        #expect(events.contains(.user(.languageChosen(LanguageChosen(user: signedIn.account.id, language: .french)))))
    }

    @Test func anUnknownLanguageIsAFieldErrorAndChangesNothing() async throws {
        let ada = try await principal(try await signUp("ada@example.org", language: "fr"))
        await #expect(throws: InvalidInput([FieldError("language", .notOneOf(["en", "fr"]))])) {
            try await accounts.editProfile.execute(ProfileForm(displayName: "Ada L.", language: "de"), by: ada)
        }
        #expect(try await accounts.showMe.execute(by: ada).language == .french)
        await #expect(throws: InvalidInput([FieldError("language", .notOneOf(["en", "fr"]))])) {
            try await signUp("bob@example.org", language: "")
        }
    }

    @Test func aRebuildAndVerifyAgreeWithTheReadModel() async throws {
        let ada = try await principal(try await signUp("ada@example.org", language: "en"))
        _ = try await accounts.editProfile.execute(ProfileForm(language: "fr"), by: ada)
        _ = try await signUp("bob@example.org")
        let listed = try await accounts.listUsers.execute(by: .cliOperator).items.map(\.language)
        #expect(listed == [.french, nil])
        #expect(try await t.library.verifyLog.execute(by: .cliOperator).allSatisfy(\.passed))
        _ = try await t.database.rebuild { _, _ in }
        #expect(try await accounts.listUsers.execute(by: .cliOperator).items.map(\.language) == listed)
    }

    @Test func aLanguageChangedInTheDatabaseFileIsCaughtByVerify() async throws {
        _ = try await signUp("ada@example.org", language: "fr")
        let raw = try DatabaseQueue(path: t.folder.databasePath)
        try await raw.write { db in try db.execute(sql: "UPDATE accounts SET language = 'en'") }
        try raw.close()
        let replay = try await t.library.verifyLog.execute(by: .cliOperator).first { !$0.passed }
        #expect(replay?.name == "replay" && replay?.detail.contains("language=") == true, "\(String(describing: replay))")
    }
}
