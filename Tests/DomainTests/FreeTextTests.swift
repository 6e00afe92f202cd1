import Domain
import Foundation
import Testing

/// Control characters are refused wherever a person types text: a NUL would cut the text short
/// where it is stored (or hashed), an escape sequence would drive a terminal.
@Suite("Free text rules")
struct FreeTextTests {
    @Test("control characters are refused", arguments: ["a\u{0}b", "a\u{1B}[31mred", "bell\u{7}", "del\u{7F}", "a\u{85}b"])
    func controlCharacters(text: String) {
        #expect(FreeText.problem(text, field: "title") == FieldError("title", .controlCharacters(allowingLineBreaks: false)))
    }

    @Test(
        "ordinary text passes, line breaks and tabs only where text may span lines",
        arguments: [
            ("Le Guin: Élan, 東京, emoji 📚, zero-width joiner 👩‍💻", false, true),
            ("two\nlines", false, false),
            ("two\nlines\tand a tab\r\n", true, true),
            ("a\u{0}b", true, false),
        ])
    func allowed(text: String, multiline: Bool, passes: Bool) {
        #expect((FreeText.problem(text, field: "f", multiline: multiline) == nil) == passes)
    }

    @Test func aLetterWithAHundredThousandCombiningAccentsIsNotOneCharacterShort() {
        let piled = "A" + String(repeating: "\u{0301}", count: 100_000)
        #expect(piled.count == 1)
        #expect(FreeText.isTooLong(piled, max: 100))
        #expect(FreeText.isTooLong(String(repeating: "x", count: 101), max: 100))
        // What real names and titles hold passes: accents, Devanagari, Hangul jamo, emoji sequences.
        for text in ["Ngũgĩ wa Thiong'o", "देवनागरी", "\u{1100}\u{1161}\u{11A8}", "👩‍👩‍👧‍👦 family", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"] {
            #expect(!FreeText.isTooLong(text, max: 100), "\(text)")
        }
    }

    @Test func textDrawnAsNothingLooksEmpty() {
        for text in ["", " ", "\u{3164}", "\u{115F}\u{1160}", "\u{FFA0}", "\u{034F}", "\u{200B}\u{FE0F}"] {
            #expect(FreeText.looksEmpty(text), "\(text.unicodeScalars.map(\.value))")
        }
        for text in ["a", "❤️", "\u{3164}a", "한글"] { #expect(!FreeText.looksEmpty(text), "\(text)") }
    }

    @Test func anEmailAddressIsAtMost254Octets() throws {
        let local = String(repeating: "é", count: 130)
        #expect(throws: FieldError("email", .tooLong(max: 254))) { try EmailAddress(parsing: "\(local)@example.org") }
        #expect(throws: FieldError("email", .tooLong(max: 254))) {
            try EmailAddress(parsing: "a" + String(repeating: "\u{0301}", count: 1_000) + "@example.org")
        }
    }

    @Test(
        "invisible format characters are refused in names and titles",
        arguments: [
            "Sensitive\u{202E}cipoT", "zero\u{200B}width", "\u{FEFF}bom", "soft\u{AD}hyphen", "line\u{2028}separator",
        ])
    func invisible(text: String) {
        #expect(FreeText.problem(text, field: "title") != nil)
    }

    @Test(
        "the joiners emoji and scripts need are kept in names, but not in addresses",
        arguments: [
            "👩\u{200D}💻", "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "می\u{200C}خواهم",
        ])
    func joiners(text: String) {
        #expect(FreeText.problem(text, field: "displayName") == nil)
        #expect(FreeText.problem(text, field: "email", identifier: true) == FieldError("email", .invisibleCharacters))
    }

    @Test func bookFieldsRefuseControlCharacters() {
        let draft = BookDraft(
            title: "a\u{0}b", authors: ["x\u{0}y"], publisher: "p\u{1B}", categories: ["c\u{7}"],
            description: "first line\nsecond line\t\u{1B}[2J")
        var errors: [FieldError] = []
        _ = draft.validate(into: &errors)
        #expect(errors.map(\.field) == ["title", "authors[0]", "publisher", "categories[0]", "description"])
        var none: [FieldError] = []
        _ = BookDraft(title: "Dune", authors: ["Frank Herbert"], description: "first line\nsecond line\tend").validate(into: &none)
        #expect(none.isEmpty)
    }

    @Test func emailsWithControlCharactersAreRefused() {
        // The address names the email stream: "x\0y@example.org" would be stored as "email-x".
        #expect(throws: FieldError("email", .controlCharacters(allowingLineBreaks: false))) {
            try EmailAddress(parsing: "x\u{0}y@example.org")
        }
    }

    @Test func passwordsWithControlCharactersAreRefused() {
        // bcrypt stops at a NUL: this password would be "A!".
        #expect(PasswordPolicy.problems("A!\u{0}zzzzzz").map(\.problem) == [.controlCharacters(allowingLineBreaks: false)])
    }

    @Test func displayNamesWithControlCharactersAreRefused() {
        let form = SignupForm(email: "ada@example.org", password: "Valid-Pass1", displayName: "a\u{0}b", country: "GB")
        #expect(form.validate().problems == [FieldError("displayName", .controlCharacters(allowingLineBreaks: false))])
    }

    /// Text another system wrote is mended: controls and direction overrides dropped, line breaks
    /// read as spaces, a letter under thousands of accents kept with its first ones (found by
    /// outside walks: words glued together, a visible title emptied).
    @Test func textFromElsewhereIsMendedNotEmptied() {
        #expect(FreeText.cleaned("Line one\nLine\u{2028}two\u{0}\u{202E}", max: 100) == "Line one Line two")
        #expect(FreeText.cleaned("Line one\nline two", max: 100, multiline: true) == "Line one\nline two")
        let heavy = "a" + String(repeating: "\u{0301}", count: 2_000) + "bc"
        let mended = FreeText.cleaned(heavy, max: 100)
        #expect(
            mended?.unicodeScalars.first == "a" && mended?.hasSuffix("bc") == true, "\(String(describing: mended?.unicodeScalars.count))")
        #expect(mended.map { !FreeText.isTooLong($0, max: 100) } == true)
        #expect(FreeText.cleaned(" \u{200B}\u{3164} ", max: 100) == nil)
        #expect(FreeText.cleaned(String(repeating: "x", count: 600), max: 500)?.count == 500)
    }
}
