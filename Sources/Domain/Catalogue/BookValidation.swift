/// Turns a draft into details, reporting every field problem at once.
extension BookDraft {
    /// The normalised details; every problem found is appended to `errors`, and the details are
    /// only valid when none was.
    public func validate(into errors: inout [FieldError]) -> BookDetails {
        let title = Self.text(title, field: "title", max: BookLimits.title, required: true, into: &errors)
        let authors = Self.authors(authors, into: &errors)
        let isbn = Self.isbn(isbn, into: &errors)
        let publisher = Self.text(publisher, field: "publisher", max: BookLimits.publisher, into: &errors)
        let categories = Self.categories(categories, into: &errors)
        let cover = Self.coverURL(coverURL, into: &errors)
        let description = Self.text(
            description, field: "description", max: BookLimits.description, multiline: true, into: &errors)
        return BookDetails(
            title: title ?? "", authors: authors, isbn: isbn, publisher: publisher,
            categories: categories, coverURL: cover, description: description)
    }

    /// Trimmed text, nil when empty; an error when required and empty, too long, or holding
    /// control characters.
    private static func text(
        _ raw: String?, field: String, max: Int, required: Bool = false, multiline: Bool = false,
        into errors: inout [FieldError]
    ) -> String? {
        // Composed (NFC): "café" typed with a combining accent is the title typed with "é", one
        // spelling to search, sort and compare, whichever keyboard or app sent it.
        let trimmed = (raw?.trimmingWhitespace() ?? "").precomposedStringWithCanonicalMapping
        if FreeText.looksEmpty(trimmed) {
            if required { errors.append(FieldError(field, .required)) }
            return nil
        }
        if FreeText.isTooLong(trimmed, max: max) { errors.append(FieldError(field, .tooLong(max: max))) }
        if let problem = FreeText.problem(trimmed, field: field, multiline: multiline) { errors.append(problem) }
        return trimmed
    }

    private static func authors(_ raw: [String], into errors: inout [FieldError]) -> [String] {
        let names = raw.enumerated().compactMap { index, name in
            text(name, field: "authors[\(index)]", max: BookLimits.author, into: &errors)
        }
        if names.isEmpty { errors.append(FieldError("authors", .required)) }
        if names.count > BookLimits.authors {
            errors.append(FieldError("authors", .tooMany(max: BookLimits.authors)))
        }
        return names
    }

    private static func isbn(_ raw: String?, into errors: inout [FieldError]) -> ISBN? {
        guard let raw, !raw.trimmingWhitespace().isEmpty else { return nil }
        do {
            return try ISBN(parsing: raw.trimmingWhitespace())
        } catch {
            errors.append(FieldError("isbn", .notAnISBN(raw.trimmingWhitespace(), error)))
            return nil
        }
    }

    /// Tags trimmed, blanks dropped, duplicates (ignoring case) dropped, order kept.
    private static func categories(_ raw: [String], into errors: inout [FieldError]) -> [String] {
        var seen: Set<String> = []
        var tags: [String] = []
        for (index, tag) in raw.enumerated() {
            guard let tag = text(tag, field: "categories[\(index)]", max: BookLimits.category, into: &errors),
                seen.insert(tag.lowercased()).inserted
            else { continue }
            tags.append(tag)
        }
        if tags.count > BookLimits.categories {
            errors.append(FieldError("categories", .tooMany(max: BookLimits.categories)))
        }
        return tags
    }

    private static func coverURL(_ raw: String?, into errors: inout [FieldError]) -> String? {
        guard let url = text(raw, field: "coverUrl", max: BookLimits.coverURL, into: &errors) else { return nil }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), !url.contains(" "), url.count > 8 else {
            errors.append(FieldError("coverUrl", .notAWebAddress))
            return nil
        }
        return url
    }
}

extension String {
    /// The string without leading and trailing white space or newlines.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
