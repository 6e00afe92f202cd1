import Domain
import Foundation
import Testing

/// Control characters are refused wherever a person types text: a NUL would cut the text short
/// where it is stored (or hashed), an escape sequence would drive a terminal.
@Suite("Free text rules")
struct FreeTextTests {
    @Test("control characters are refused", arguments: ["a\u{0}b", "a\u{1B}[31mred", "bell\u{7}", "del\u{7F}", "a\u{85}b"])
    func controlCharacters(text: String) {
        #expect(FreeText.problem(text, field: "title") == FieldError("title", FreeText.message))
    }

    @Test("ordinary text passes, line breaks and tabs only where text may span lines", arguments: [
        ("Le Guin: Élan, 東京, emoji 📚, zero-width joiner 👩‍💻", false, true),
        ("two\nlines", false, false),
        ("two\nlines\tand a tab\r\n", true, true),
        ("a\u{0}b", true, false),
    ])
    func allowed(text: String, multiline: Bool, passes: Bool) {
        #expect((FreeText.problem(text, field: "f", multiline: multiline) == nil) == passes)
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
        #expect(throws: FieldError("email", FreeText.message)) { try EmailAddress(parsing: "x\u{0}y@example.org") }
    }

    @Test func passwordsWithControlCharactersAreRefused() {
        // bcrypt stops at a NUL: this password would be "A!".
        #expect(PasswordPolicy.problems("A!\u{0}zzzzzz").map(\.message) == [FreeText.message])
    }

    @Test func displayNamesWithControlCharactersAreRefused() {
        let form = SignupForm(email: "ada@example.org", password: "Valid-Pass1", displayName: "a\u{0}b", country: "GB")
        #expect(form.validate().problems == [FieldError("displayName", FreeText.message)])
    }
}
