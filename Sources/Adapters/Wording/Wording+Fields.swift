import Application
import Domain

extension Wording {
    /// What is wrong with one field, said to follow the field's name ("title: is required",
    /// "titre : obligatoire").
    public func text(_ problem: FieldProblem) -> String {
        switch problem {
        case .required: t("field.required")
        case .requiredWith(let field, let value): t("field.requiredWith", field, value)
        case .exactlyOneOf(let fields): t("field.exactlyOneOf", orList(fields))
        case .atLeastOneOf(let fields): t("field.atLeastOneOf", orList(fields))
        case .tooLong(let max): t("field.tooLong", count: max, n(max))
        case .tooManyBytes(let max): t("field.tooManyBytes", count: max, n(max))
        case .tooShort(let min): t("field.tooShort", count: min, n(min))
        case .tooMany(let max): t("field.tooMany", count: max, n(max))
        case .tooFew(let min): t("field.tooFew", count: min, n(min))
        case .outOfRange(let min, let max): t("field.outOfRange", n(min), n(max))
        case .numberOutOfRange(let min, let max, let whole, let unit): numberOutOfRange(min, max, whole: whole, unit: unit)
        case .tooSmall(let min): t("field.tooSmall", n(min))
        case .notOneOf(let choices): t("field.notOneOf", orList(choices.map { t("field.quoted", $0) }))
        case .wrongType(let kind): wrongType(kind)
        case .unknownField: t("field.unknownField")
        case .controlCharacters(true): t("field.controlCharacters.lineBreaksFine")
        case .controlCharacters(false): t("field.controlCharacters")
        case .invisibleCharacters: t("field.invisibleCharacters")
        case .containsSpaces: t("field.containsSpaces")
        case .notAnEmailAddress: t("field.notAnEmailAddress")
        case .emailDomainWithoutDot: t("field.emailDomainWithoutDot")
        case .needsUppercase: t("field.needsUppercase")
        case .needsSpecialCharacter: t("field.needsSpecialCharacter")
        case .passwordsDiffer: t("field.passwordsDiffer")
        case .notAResetCode: t("field.notAResetCode")
        case .notACountryCode: t("field.notACountryCode")
        case .unknownCountry(let code): t("field.unknownCountry", String(code.prefix(10)))
        case .notAnISBN(let text, let problem): notAnISBN(text, problem)
        case .notACardNumber(let text, let problem): notACardNumber(text, problem)
        case .notAMemberReference(let text): t("field.notAMemberReference", String(text.prefix(100)))
        case .unknownSearchField(let name, let known):
            t("field.unknownSearchField", String(name.prefix(40)), orList(known.map { "\($0):" }))
        case .emptySearchField(let field): t("field.emptySearchField", field)
        case .notAWorkKey: t("field.notAWorkKey")
        case .lookalikeCharacters: t("field.lookalikeCharacters")
        case .encodedDomain: t("field.encodedDomain")
        case .notEntityTags: t("field.notEntityTags")
        case .notAUsername: t("field.notAUsername")
        case .notAnIPAddress(let text): t("field.notAnIPAddress", String(text.prefix(40)))
        case .folderUnusable(let path): t("field.folderUnusable", path)
        case .folderMissing(let path): t("field.folderMissing", path)
        case .notADatabaseURL: t("field.notADatabaseURL")
        case .databaseUnreachable(let address): t("field.databaseUnreachable", address)
        case .restoreOnPostgres: t("field.restoreOnPostgres")
        case .notALibraryFile(let path): t("field.notALibraryFile", path)
        case .noLibrary(let path): t("field.noLibrary", path)
        case .notUTF8: t("field.notUTF8")
        case .databaseNotEmpty(let events): t("field.databaseNotEmpty", t("message.events", count: Int(clamping: events), n(events)))
        case .copyUnderWay: t("field.copyUnderWay")
        case .taken: t("field.taken")
        case .notAWebAddress: t("field.notAWebAddress")
        case .noCopies(let wouldBe): t("field.noCopies", n(wouldBe))
        case .tooVague: t("field.tooVague")
        case .confirmationNeeded: t("field.confirmationNeeded")
        case .fileExists(let path): t("field.fileExists", path)
        case .fileUnusable(let path): t("field.fileUnusable", path)
        case .notADuration(let min, let max): t("field.notADuration", min, max)
        }
    }

    /// One field error: its name, then its problem ("title: is required", "title : obligatoire").
    public func text(_ error: FieldError) -> String { fieldError(error) }

    /// "a, b or c" ("a, b ou c").
    func orList(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return t("field.list.or", items.dropLast().joined(separator: ", "), last)
    }
}
