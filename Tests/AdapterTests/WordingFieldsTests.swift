import Application
import Domain
import Testing
import Wording

/// What is wrong with a field, in English and in French: said after the field's name, with the
/// language's plurals, list words, quotation marks and numbers.
@Suite struct WordingFieldsTests {
    static let english = Wording(.english)
    static let french = Wording(.french)
    /// The no-break space French puts inside « » and before : ; ? !
    static let nb = "\u{00A0}"

    @Test func aSampleReadsTheSameInEnglishAsBefore() {
        #expect(Self.english.text(FieldProblem.required) == "is required")
        #expect(Self.english.text(FieldProblem.tooLong(max: 200)) == "must be at most 200 characters long")
        #expect(Self.english.text(FieldProblem.notOneOf(["newest", "oldest", "title"])) == "must be one of 'newest', 'oldest' or 'title'")
        #expect(Self.english.text(FieldProblem.exactlyOneOf(["book", "member"])) == "give exactly one of book or member")
        #expect(Self.english.text(FieldProblem.wrongType(.integer)) == "must be a whole number")
        #expect(
            Self.english.text(FieldProblem.notAnISBN("12345", .wrongLength(5)))
                == "'12345' is not an ISBN: an ISBN has 10 or 13 digits, and this has 5")
        #expect(
            Self.english.text(FieldProblem.numberOutOfRange(min: 0.5, max: 10, whole: false, unit: .days))
                == "must be a number from 0.5 to 10 (days)")
        #expect(Self.english.text(FieldProblem.emptySearchField("author")) == "author: needs a word or a \"quoted phrase\" after it")
        #expect(Self.english.text(FieldError("title", .required)) == "title: is required")
    }

    @Test func aSampleInFrenchReadsAfterTheFieldsName() {
        #expect(Self.french.text(FieldProblem.required) == "obligatoire")
        #expect(Self.french.text(FieldError("title", .required)) == "title\(Self.nb): obligatoire")
        #expect(Self.french.text(FieldProblem.tooLong(max: 200)) == "doit compter au plus 200 caractères")
        #expect(Self.french.text(FieldProblem.wrongType(.integer)) == "doit être un nombre entier")
        #expect(Self.french.text(FieldProblem.taken) == "appartient déjà à un autre compte")
        #expect(
            Self.french.text(FieldProblem.notAnISBN("12345", .wrongLength(5)))
                == "«\(Self.nb)12345\(Self.nb)» n'est pas un ISBN\(Self.nb): un ISBN a 10 ou 13 chiffres, et celui-ci en a 5")
        #expect(
            Self.french.text(FieldProblem.notACardNumber(String(repeating: "9", count: 45), .wrongLength(45)))
                .hasPrefix("«\(Self.nb)\(String(repeating: "9", count: 40))…\(Self.nb)» n'est pas un numéro de carte"))
    }

    @Test func listsJoinTheirLastItemWithTheLanguagesOr() {
        #expect(
            Self.french.text(FieldProblem.notOneOf(["newest", "oldest", "title"]))
                == "doit être «\(Self.nb)newest\(Self.nb)», «\(Self.nb)oldest\(Self.nb)» ou «\(Self.nb)title\(Self.nb)»")
        #expect(
            Self.french.text(FieldProblem.atLeastOneOf(["title", "author", "q"])) == "indiquez au moins un champ parmi title, author ou q")
        #expect(Self.french.text(FieldProblem.exactlyOneOf(["book"])) == "indiquez exactement un champ parmi book")
        #expect(
            Self.french.text(FieldProblem.unknownSearchField("colour", known: ["author", "title"]))
                .hasPrefix("«\(Self.nb)colour:\(Self.nb)» n'est pas un champ de recherche (utilisez author: ou title:,"))
    }

    /// French takes the singular for 0 and 1, English for 1 only.
    @Test func pluralsFollowEachLanguagesRule() {
        #expect(Self.english.text(FieldProblem.tooShort(min: 0)) == "must be at least 0 characters long")
        #expect(Self.english.text(FieldProblem.tooShort(min: 1)) == "must be at least 1 character long")
        #expect(Self.english.text(FieldProblem.tooShort(min: 2)) == "must be at least 2 characters long")
        #expect(Self.french.text(FieldProblem.tooShort(min: 0)) == "doit compter au moins 0 caractère")
        #expect(Self.french.text(FieldProblem.tooShort(min: 1)) == "doit compter au moins 1 caractère")
        #expect(Self.french.text(FieldProblem.tooShort(min: 2)) == "doit compter au moins 2 caractères")
        #expect(Self.french.text(FieldProblem.tooMany(max: 1)) == "doit compter au plus 1 élément")
        #expect(Self.french.text(FieldProblem.tooMany(max: 20)) == "doit compter au plus 20 éléments")
    }

    @Test func numbersAreWrittenForTheLanguage() {
        #expect(Self.english.text(FieldProblem.outOfRange(min: 0, max: 1_000_000)) == "must be a whole number from 0 to 1,000,000")
        #expect(
            Self.french.text(FieldProblem.outOfRange(min: 0, max: 1_000_000)) == "doit être un nombre entier de 0 à 1\u{202F}000\u{202F}000"
        )
        // A setting's bounds are written as the setting is typed, in every language (no comma, no grouping).
        #expect(
            Self.french.text(FieldProblem.numberOutOfRange(min: 0.5, max: 3650, whole: false, unit: .days))
                == "doit être un nombre de 0.5 à 3650 (jours)")
    }

    /// Every variant of every problem has its own French words (none falls back to English or to its key).
    @Test func everyProblemHasFrenchWords() {
        let problems: [FieldProblem] =
            ValueKind.allCases.map { .wrongType($0) }
            + MeasureUnit.allCases.map { .numberOutOfRange(min: 0.5, max: 10, whole: false, unit: $0) }
            + [ISBN.Problem.wrongLength(5), .invalidCharacter("h"), .wrongCheckDigit, .unknownPrefix].map { .notAnISBN("x", $0) }
            + [CardNumber.Problem.wrongLength(5), .invalidCharacter("h"), .wrongCheckDigits].map { .notACardNumber("x", $0) }
            + [
                .required, .requiredWith(field: "view", value: "member"), .tooManyBytes(max: 72), .tooFew(min: 1), .tooSmall(min: 1),
                .unknownField, .controlCharacters(allowingLineBreaks: true), .controlCharacters(allowingLineBreaks: false),
                .invisibleCharacters, .containsSpaces, .notAnEmailAddress, .emailDomainWithoutDot, .needsUppercase,
                .needsSpecialCharacter, .passwordsDiffer, .notAResetCode, .notACountryCode, .unknownCountry("ZZ"),
                .notAMemberReference("Mrs Hudson"), .notAWorkKey, .lookalikeCharacters, .encodedDomain, .notEntityTags, .notAUsername,
                .notAnIPAddress("x"),
                .folderUnusable("/x"), .folderMissing("/x"), .notADatabaseURL, .databaseUnreachable("postgres://a@b/c"),
                .databaseNotEmpty(events: 2), .copyUnderWay, .restoreOnPostgres, .notALibraryFile("/x"), .notUTF8, .notAWebAddress,
                .noCopies(wouldBe: 0), .tooVague,
                .confirmationNeeded, .fileExists("/x"), .fileUnusable("/x"), .notADuration(min: "1s", max: "365d"),
            ]
        for problem in problems {
            let french = Self.french.text(problem)
            #expect(french != Self.english.text(problem), "\(problem) is not in French: \(french)")
            #expect(!french.hasPrefix("field."), "\(problem) has no text: \(french)")
        }
    }
}
