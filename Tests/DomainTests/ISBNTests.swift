import Domain
import Testing

@Suite("ISBN")
struct ISBNTests {
    @Test(
        "valid ISBN-10s become ISBN-13s",
        arguments: [
            ("0-306-40615-2", "9780306406157"),
            ("0306406152", "9780306406157"),
            ("0 441 47812 3", "9780441478125"),
            ("0-8044-2957-X", "9780804429573"),
            ("080442957x", "9780804429573"),
        ])
    func isbn10(text: String, isbn13: String) throws {
        #expect(try ISBN(parsing: text).isbn13 == isbn13)
    }

    @Test(
        "valid ISBN-13s are kept, without separators",
        arguments: [
            ("978-0-306-40615-7", "9780306406157"),
            ("9780441172719", "9780441172719"),
            ("979-10-90636-07-1", "9791090636071"),
        ])
    func isbn13(text: String, isbn13: String) throws {
        #expect(try ISBN(parsing: text).isbn13 == isbn13)
    }

    @Test("ISBN-10 form is given back for the 978 range only")
    func isbn10Form() throws {
        #expect(try ISBN(parsing: "9780804429573").isbn10 == "080442957X")
        #expect(try ISBN(parsing: "9791090636071").isbn10 == nil)
    }

    @Test(
        "invalid ISBNs say why",
        arguments: [
            ("0-306-40615-3", ISBN.Problem.wrongCheckDigit),
            ("978-0-306-40615-8", .wrongCheckDigit),
            ("12345", .wrongLength(5)),
            ("030640615A", .invalidCharacter("A")),
            ("ISBN? 0441172717", .invalidCharacter("?")),
            ("hello", .invalidCharacter("h")),
            ("03064X6152", .invalidCharacter("X")),
            ("1234567890128", .unknownPrefix),
        ])
    func invalid(text: String, problem: ISBN.Problem) {
        #expect(throws: problem) { try ISBN(parsing: text) }
    }

    @Test(
        "the label printed on books is understood",
        arguments: ["ISBN 0441172717", "ISBN-10: 0-441-17271-7", "isbn 978-0-441-17271-9", "ISBN-13:9780441172719"])
    func labelled(text: String) throws {
        #expect(try ISBN(parsing: text).isbn13 == "9780441172719")
    }

    @Test func problemsCountDigitsAndKeepTheStrayCharacter() {
        #expect(throws: ISBN.Problem.wrongLength(5)) { try ISBN(parsing: "12345") }
        #expect(throws: ISBN.Problem.invalidCharacter("\u{200B}")) { try ISBN(parsing: "0441\u{200B}172717") }
    }
}
