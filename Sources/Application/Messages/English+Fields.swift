import Domain

extension English {
    /// What is wrong with a field, said to follow its name ("title: is required").
    public func text(_ problem: FieldProblem) -> String {
        switch problem {
        case .required: "is required"
        case .requiredWith(let field, let value): "is required when \(field) is \(value)"
        case .exactlyOneOf(let fields): "give exactly one of \(list(fields, "or"))"
        case .atLeastOneOf(let fields): "give at least one of \(list(fields, "or"))"
        case .tooLong(let max): "must be at most \(max) \(max == 1 ? "character" : "characters") long"
        case .tooManyBytes(let max): "must be at most \(max) bytes long (the rest would be ignored)"
        case .tooShort(let min): "must be at least \(min) \(min == 1 ? "character" : "characters") long"
        case .tooMany(let max): "must have at most \(max) \(max == 1 ? "entry" : "entries")"
        case .tooFew(let min): "must have at least \(min) \(min == 1 ? "entry" : "entries")"
        case .outOfRange(let min, let max): "must be a whole number from \(min) to \(max)"
        case .numberOutOfRange(let min, let max, let whole, let unit):
            "must be \(whole ? "a whole number" : "a number") from \(number(min)) to \(number(max))\(unit.map { " (\($0.english))" } ?? "")"
        case .tooSmall(let min): "must be \(min) or more"
        case .notOneOf(let choices): "must be one of \(list(choices.map { "'\($0)'" }, "or"))"
        case .wrongType(let kind): "must be \(self.kind(kind))"
        case .unknownField: "is not a field of this request"
        case .controlCharacters(let allowingLineBreaks):
            allowingLineBreaks
                ? "must not contain control characters (line breaks and tabs are fine)" : "must not contain control characters"
        case .invisibleCharacters: "must not contain invisible formatting characters (such as zero-width spaces or direction overrides)"
        case .containsSpaces: "must not contain spaces"
        case .notAnEmailAddress: "must be an email address, such as name@example.org"
        case .emailDomainWithoutDot: "must end in a domain with a dot, such as example.org"
        case .needsUppercase: "must contain an uppercase letter"
        case .needsSpecialCharacter: "must contain a character that is neither a letter nor a digit"
        case .passwordsDiffer: "was typed differently the second time; nothing was changed, so please type it again"
        case .notAResetCode: "must be a reset code of 12 letters and digits, as a librarian gave it, such as 7K3M-Q9TD-X2FB"
        case .notACountryCode: "must be a two-letter country code (ISO 3166-1), such as FR or CA"
        case .unknownCountry(let code): "'\(code.prefix(10))' is not a country code we know"
        case .notAnISBN(let text, let problem): notAnISBN(text, problem)
        case .notACardNumber(let text, let problem): notACardNumber(text, problem)
        case .notAMemberReference(let text):
            "'\(text.prefix(100))' is neither a member's id nor an email address; to list a walk-in borrower's loans by name, "
                + "give the name as borrower instead"
        case .unknownSearchField(let name, let known):
            "'\(name.prefix(40)):' is not a field to search in (use \(list(known.map { "\($0):" }, "or")), "
                + "or put the words in quotes to search for them as they are)"
        case .emptySearchField(let field): "\(field): needs a word or a \"quoted phrase\" after it"
        case .notAWorkKey: "must be an Open Library work key, such as OL27448W"
        case .lookalikeCharacters: "has characters that look like plain ones but are not (fullwidth letters, ligatures): type them plainly"
        case .notAUsername: "must be letters, digits, dots, hyphens or underscores, starting with a letter"
        case .notAnIPAddress(let text): "must be IP addresses separated by commas; '\(text.prefix(40))' is not one"
        case .folderUnusable(let path): "needs the folder \(path), which cannot be created"
        case .folderMissing(let path):
            "names a file in the folder \(path), which does not exist: create the folder first, or give another path"
        case .taken: "is already used by another account"
        case .notAWebAddress: "must be a web address starting with http:// or https://"
        case .noCopies(let wouldBe): "the library must own at least 1 copy, not \(wouldBe)"
        case .tooVague: "is too broad to search for; use a longer or more specific query"
        case .confirmationNeeded: "must be given to confirm, as this cannot be undone"
        case .fileExists(let path): "'\(path)' exists already; give the name of a new file"
        case .fileUnusable(let path): "'\(path)' cannot be read or written"
        case .notADuration(let min, let max):
            "must be a duration from \(min) to \(max): a whole number and a unit (s, m, h or d), such as 30m, 6h or 1d"
        }
    }

    private func notACardNumber(_ text: String, _ problem: CardNumber.Problem) -> String {
        let quoted = "'\(text.prefix(40))\(text.count > 40 ? "…" : "")' is not a library card number"
        return switch problem {
        case .wrongLength(let count): "\(quoted): a card number has 10 digits, and this has \(count)"
        case .invalidCharacter(let character):
            "\(quoted): a card number has 10 digits (spaces and hyphens between them are fine), "
                + "and '\(FreeText.visible(character))' is not a digit"
        case .wrongCheckDigits: "\(quoted): its last two digits do not match the others (a digit may be mistyped); please check the card"
        }
    }

    private func notAnISBN(_ text: String, _ problem: ISBN.Problem) -> String {
        let quoted = "'\(text.prefix(40))\(text.count > 40 ? "…" : "")' is not an ISBN"
        return switch problem {
        case .wrongLength(let count):
            "\(quoted): an ISBN has 10 or 13 digits, and this has \(count)"
        case .invalidCharacter(let character):
            "\(quoted): an ISBN has 10 or 13 digits (hyphens and spaces between them are fine, and the last may be X), "
                + "and '\(FreeText.visible(character))' is not a digit"
        case .wrongCheckDigit: "\(quoted): its last digit does not match the others (a digit may be mistyped)"
        case .unknownPrefix: "\(quoted): a 13-digit ISBN starts with 978 or 979"
        }
    }

    private func kind(_ kind: ValueKind) -> String {
        switch kind {
        case .string: "text"
        case .integer: "a whole number"
        case .number: "a number"
        case .boolean: "true or false"
        case .array: "a list"
        case .object: "an object"
        case .json: "a JSON document"
        case .time: "a time in ISO 8601 form, such as 2026-12-01T09:00:00Z"
        case .id: "an id, such as 3f2a6c1e-8b4d-4c2e-9a7f-1d2e3f4a5b6c"
        }
    }

    private func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// "a, b or c".
    func list(_ items: [String], _ conjunction: String) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}

extension MeasureUnit {
    fileprivate var english: String {
        switch self {
        case .days: "days"
        case .seconds: "seconds"
        case .mebibytes: "MiB"
        case .perMinuteAndClient: "per minute and client"
        }
    }
}
