import Domain
import Foundation
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

    @Test func noHeaderOrNoLanguageSpokenIsEnglish() {
        #expect(Language.reading(acceptLanguage: nil) == .english)
        #expect(Language.reading(acceptLanguage: "de-DE") == .english)
        #expect(Language.reading(acceptLanguage: "de-DE, fr;q=0.3") == .french)
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

/// Dates and counts as each language writes them.
@Suite struct FormatsTests {
    static let firstOfDecember = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z
    static let twentySecond = Date(timeIntervalSince1970: 1_795_357_500)  // 2026-11-22T14:25:00Z

    @Test func daysAndMomentsInEachLanguage() {
        #expect(Formats(.english).day(Self.twentySecond) == "November 22, 2026")
        #expect(Formats(.french).day(Self.twentySecond) == "22 novembre 2026")
        #expect(Formats(.french).day(Self.firstOfDecember) == "1er décembre 2026")
        #expect(Formats(.english).day(Self.firstOfDecember) == "December 1, 2026")
        #expect(Formats(.french).moment(Self.twentySecond) == "22 novembre 2026 à 14:25 UTC")
        #expect(Formats(.english).moment(Self.twentySecond) == "November 22, 2026 at 14:25 UTC")
    }

    @Test func theFirstIsTheFirstInTheReadersZone() throws {
        // 1 December 00:00 UTC is still 30 November in Montréal.
        let montreal = try #require(TimeZone(identifier: "America/Montreal"))
        #expect(Formats(.french, zone: montreal).minute(Self.firstOfDecember) == "30 novembre 2026 19:00")
    }

    @Test func countsAreGroupedForTheLanguage() {
        #expect(Formats(.english).number(1234) == "1,234")
        #expect(Formats(.french).number(1234) == "1\u{202F}234")
    }

    @Test(arguments: [0, 1, 7, 42, 999, 1000, -3, Int(Int64.max)])
    func aCountIsWhatTheLanguagesNumberFormatSays(count: Int) {
        for language in Language.allCases {
            #expect(Formats(language).number(count) == Int64(count).formatted(.number.locale(language.locale).grouping(.automatic)))
        }
    }
}
