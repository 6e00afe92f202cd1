import Domain
import Testing
import Wording

/// How a reader's language is chosen from what their client says.
@Suite struct LanguageChoiceTests {
    @Test(
        arguments: [
            ("fr-CA,fr;q=0.9,en;q=0.8", Language.french),
            ("fr-BE", .french),
            ("en-GB,en;q=0.9,fr;q=0.8", .english),
            ("de-DE,fr;q=0.5,en;q=0.4", .french),
            ("de, en;q=0.1, fr;q=0.2", .french),
            ("fr;q=0, en", .english),
            ("*", nil),
            ("", nil),
            ("de-DE", nil),
            ("fr;q=abc, en;q=0.5", .french),
            ("EN-us", .english),
        ] as [(String, Language?)])
    func acceptLanguageHonoursQualities(header: String, expected: Language?) {
        #expect(Language.negotiate(acceptLanguage: header) == expected)
    }

    @Test func aHugeHeaderIsReadOnlyInPart() {
        let header = String(repeating: "de;q=0.9,", count: 100_000) + "fr"
        #expect(Language.negotiate(acceptLanguage: header) == nil)
    }

    @Test func posixLocaleSettingsInTheirOrder() {
        #expect(Language.fromLocale(["LANG": "fr_FR.UTF-8"]) == .french)
        #expect(Language.fromLocale(["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "en_US.UTF-8"]) == .english)
        #expect(Language.fromLocale(["LANG": "en_US.UTF-8", "LC_ALL": "fr_CA.UTF-8"]) == .french)
        #expect(Language.fromLocale(["LC_ALL": "C", "LANG": "fr_FR.UTF-8"]) == .english)
        #expect(Language.fromLocale(["LANG": "de_DE.UTF-8"]) == nil)
        #expect(Language.fromLocale(["LC_ALL": "", "LANG": "fr_BE"]) == .french)
        #expect(Language.fromLocale([:]) == nil)
    }

    @Test func tagsNameTheirPrimaryLanguage() {
        #expect(Language(tag: "fr_FR.UTF-8") == .french)
        #expect(Language(tag: "french") == nil)
        #expect(Language(tag: "") == nil)
    }
}
