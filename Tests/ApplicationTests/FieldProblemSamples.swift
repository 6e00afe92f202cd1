import Application
import Domain
import Foundation

/// One key per `FieldProblem` case.
enum FieldProblemKey: CaseIterable {
    case required, requiredWith, exactlyOneOf, atLeastOneOf, tooLong, tooManyBytes, tooShort, tooMany, tooFew, outOfRange
    case numberOutOfRange, tooSmall, notOneOf, wrongType, unknownField, controlCharacters, invisibleCharacters, containsSpaces
    case notAnEmailAddress, emailDomainWithoutDot, needsUppercase, needsSpecialCharacter, notACountryCode, unknownCountry
    case passwordsDiffer, notAResetCode
    case notAnISBN, unknownSearchField, emptySearchField, notAWorkKey, notAUsername, lookalikeCharacters, encodedDomain, notEntityTags,
        taken,
        notAWebAddress,
        notAnIPAddress, folderUnusable,
        folderMissing, notADatabaseURL, databaseUnreachable, databaseNotEmpty, copyUnderWay, restoreOnPostgres, notALibraryFile, notUTF8,
        noLibrary
    case noCopies, tooVague, confirmationNeeded, fileExists, fileUnusable
    case notADuration
    case notACardNumber, notAMemberReference
}

/// A sample of every field problem; `key(of:)` has no default.
enum FieldProblemSamples {
    static func key(of problem: FieldProblem) -> FieldProblemKey {
        switch problem {
        case .required: .required
        case .requiredWith: .requiredWith
        case .exactlyOneOf: .exactlyOneOf
        case .atLeastOneOf: .atLeastOneOf
        case .tooLong: .tooLong
        case .tooManyBytes: .tooManyBytes
        case .tooShort: .tooShort
        case .tooMany: .tooMany
        case .tooFew: .tooFew
        case .outOfRange: .outOfRange
        case .numberOutOfRange: .numberOutOfRange
        case .tooSmall: .tooSmall
        case .notOneOf: .notOneOf
        case .wrongType: .wrongType
        case .unknownField: .unknownField
        case .controlCharacters: .controlCharacters
        case .invisibleCharacters: .invisibleCharacters
        case .containsSpaces: .containsSpaces
        case .notAnEmailAddress: .notAnEmailAddress
        case .emailDomainWithoutDot: .emailDomainWithoutDot
        case .needsUppercase: .needsUppercase
        case .needsSpecialCharacter: .needsSpecialCharacter
        case .passwordsDiffer: .passwordsDiffer
        case .notAResetCode: .notAResetCode
        case .notACountryCode: .notACountryCode
        case .unknownCountry: .unknownCountry
        case .notAnISBN: .notAnISBN
        case .notACardNumber: .notACardNumber
        case .notAMemberReference: .notAMemberReference
        case .unknownSearchField: .unknownSearchField
        case .emptySearchField: .emptySearchField
        case .notAWorkKey: .notAWorkKey
        case .notAUsername: .notAUsername
        case .lookalikeCharacters: .lookalikeCharacters
        case .encodedDomain: .encodedDomain
        case .notEntityTags: .notEntityTags
        case .taken: .taken
        case .notAWebAddress: .notAWebAddress
        case .notAnIPAddress: .notAnIPAddress
        case .folderUnusable: .folderUnusable
        case .folderMissing: .folderMissing
        case .notADatabaseURL: .notADatabaseURL
        case .databaseUnreachable: .databaseUnreachable
        case .databaseNotEmpty: .databaseNotEmpty
        case .copyUnderWay: .copyUnderWay
        case .restoreOnPostgres: .restoreOnPostgres
        case .notALibraryFile: .notALibraryFile
        case .noLibrary: .noLibrary
        case .notUTF8: .notUTF8
        case .noCopies: .noCopies
        case .tooVague: .tooVague
        case .confirmationNeeded: .confirmationNeeded
        case .fileExists: .fileExists
        case .fileUnusable: .fileUnusable
        case .notADuration: .notADuration
        }
    }

    static func sample(_ key: FieldProblemKey) -> FieldProblem {
        switch key {
        case .required: .required
        case .requiredWith: .requiredWith(field: "view", value: "member")
        case .exactlyOneOf: .exactlyOneOf(["book", "member", "loan", "stream"])
        case .atLeastOneOf: .atLeastOneOf(["title", "author", "q"])
        case .tooLong: .tooLong(max: 500)
        case .tooManyBytes: .tooManyBytes(max: 72)
        case .tooShort: .tooShort(min: 8)
        case .tooMany: .tooMany(max: 20)
        case .tooFew: .tooFew(min: 1)
        case .outOfRange: .outOfRange(min: 1, max: 100)
        case .numberOutOfRange: .numberOutOfRange(min: 4, max: 31, whole: true, unit: nil)
        case .tooSmall: .tooSmall(min: 1)
        case .notOneOf: .notOneOf(["member", "librarian"])
        case .wrongType: .wrongType(.integer)
        case .unknownField: .unknownField
        case .controlCharacters: .controlCharacters(allowingLineBreaks: true)
        case .invisibleCharacters: .invisibleCharacters
        case .containsSpaces: .containsSpaces
        case .notAnEmailAddress: .notAnEmailAddress
        case .emailDomainWithoutDot: .emailDomainWithoutDot
        case .needsUppercase: .needsUppercase
        case .needsSpecialCharacter: .needsSpecialCharacter
        case .passwordsDiffer: .passwordsDiffer
        case .notAResetCode: .notAResetCode
        case .notACountryCode: .notACountryCode
        case .unknownCountry: .unknownCountry("ZZ")
        case .notAnISBN: .notAnISBN("hello", .invalidCharacter("h"))
        case .notACardNumber: .notACardNumber("27410 38515", .wrongCheckDigits)
        case .notAMemberReference: .notAMemberReference("Mrs Hudson")
        case .unknownSearchField: .unknownSearchField("colour", known: ["author", "title", "isbn", "publisher"])
        case .emptySearchField: .emptySearchField("author")
        case .notAWorkKey: .notAWorkKey
        case .notAUsername: .notAUsername
        case .lookalikeCharacters: .lookalikeCharacters
        case .encodedDomain: .encodedDomain
        case .notEntityTags: .notEntityTags
        case .taken: .taken
        case .notAWebAddress: .notAWebAddress
        case .notAnIPAddress: .notAnIPAddress("10.0.0.300")
        case .folderUnusable: .folderUnusable("/read-only/library")
        case .folderMissing: .folderMissing("/no/such/folder")
        case .notADatabaseURL: .notADatabaseURL
        case .databaseUnreachable: .databaseUnreachable("postgres://shelfmark@db.example.org:5432/library")
        case .databaseNotEmpty: .databaseNotEmpty(events: 1_234)
        case .copyUnderWay: .copyUnderWay
        case .restoreOnPostgres: .restoreOnPostgres
        case .notALibraryFile: .notALibraryFile("/srv/library/notes.txt")
        case .noLibrary: .noLibrary("/srv/library/libary.sqlite")
        case .notUTF8: .notUTF8
        case .noCopies: .noCopies(wouldBe: 0)
        case .tooVague: .tooVague
        case .confirmationNeeded: .confirmationNeeded
        case .fileExists: .fileExists("/tmp/replayed.sqlite")
        case .fileUnusable: .fileUnusable("/tmp/anchors.txt")
        case .notADuration: .notADuration(min: "1s", max: "365d")
        }
    }

    /// Every problem whose words depend on a value of a small enumeration, once per value.
    static var everyVariant: [FieldProblem] {
        ValueKind.allCases.map { .wrongType($0) }
            + MeasureUnit.allCases.map { .numberOutOfRange(min: 0.5, max: 10, whole: false, unit: $0) }
            + [ISBN.Problem.wrongLength(5), .invalidCharacter("\u{200B}"), .wrongCheckDigit, .unknownPrefix].map { .notAnISBN("x", $0) }
            + [true, false].map { .controlCharacters(allowingLineBreaks: $0) }
    }
}
