import Application
import ArgumentParser
import Domain

/// `shelfmark book ...`: the catalogue.
struct BookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book", abstract: "Add, list, show, edit and remove catalogue books.",
        subcommands: [Add.self, Import.self, List.self, Show.self, Edit.self, Delete.self, Clear.self])
}

/// The descriptive fields `add` and `edit` share.
struct BookFields: ParsableArguments {
    @Option(help: "The title.") var title: String?
    @Option(name: .customLong("author"), help: "An author; repeat for several.") var authors: [String] = []
    @Option(help: "ISBN-10 or ISBN-13; hyphens and spaces are fine.") var isbn: String?
    @Option(help: "The publisher.") var publisher: String?
    @Option(name: .customLong("category"), help: "A category tag; repeat for several.") var categories: [String] = []
    @Option(name: .customLong("cover-url"), help: "An http(s) URL of the cover image.") var coverURL: String?
    @Option(help: "A description or blurb.") var description: String?
}

extension BookCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a book to the catalogue.",
            usage: "shelfmark book add --title T --author A [--author B] [--isbn I] [--publisher P] [--category C]... [--copies N]")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fields: BookFields
        @Option(help: "How many copies the library owns.") var copies = 1
        @Flag(help: "Add a second record of an ISBN the catalogue has already (refused otherwise, naming that book).")
        var allowDuplicate = false

        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let draft = BookDraft(
                    title: fields.title ?? "", authors: fields.authors, isbn: fields.isbn, publisher: fields.publisher,
                    categories: fields.categories, coverURL: fields.coverURL, description: fields.description)
                let entry = try await library.catalogue.addBook.execute(draft, copies: copies, allowDuplicate: allowDuplicate, by: principal)
                try show(entry, global, verb: "Added")
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a book from Open Library by ISBN (or --work KEY); options given override what it says.")

        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("work"), help: "An Open Library work key, e.g. OL27448W, instead of --isbn.") var workKey: String?
        @OptionGroup var fields: BookFields
        @Option(help: "How many copies the library owns.") var copies = 1
        @Flag(help: "Add a second record of an ISBN the catalogue has already (refused otherwise, naming that book).")
        var allowDuplicate = false

        func validate() throws {
            if (fields.isbn == nil) == (workKey == nil) { throw ValidationError("give --isbn (the ISBN to look up) or --work") }
        }

        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let overrides = BookChanges(
                    title: fields.title, authors: fields.authors.isEmpty ? nil : fields.authors, publisher: fields.publisher,
                    categories: fields.categories.isEmpty ? nil : fields.categories, coverURL: fields.coverURL,
                    description: fields.description)
                let entry = try await library.importBook.execute(
                    isbn: fields.isbn, workKey: workKey, overrides: overrides, copies: copies, allowDuplicate: allowDuplicate, by: principal)
                try show(entry, global, verb: "Imported")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the catalogue, sorted and paged, optionally searched.")

        @OptionGroup var global: GlobalOptions
        @Option(help: "newest, oldest, title or author.") var sort = "newest"
        @Option(name: [.customShort("q"), .long], help: "Words to find in title, authors, ISBN, publisher or categories.")
        var query: String?
        @Option(help: "Books per page (1-100).") var limit = 20
        @Option(help: "Books to skip.") var offset = 0

        func validate() throws {
            guard CatalogueSort(rawValue: sort) != nil else {
                throw ValidationError("--sort must be one of: \(CatalogueSort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        func run() async throws {
            try await reportingFailures {
                let request = CatalogueQuery(sort: CatalogueSort(rawValue: sort) ?? .newest, text: query, limit: limit, offset: offset)
                let (library, principal) = try await global.acting()
                let page = try await library.catalogue.listBooks.execute(request, by: principal)
                if global.json {
                    try printJSON(PageJSON(page))
                } else {
                    print(Self.render(page))
                }
            }
        }

        static func render(_ page: Page<CatalogueEntry>) -> String {
            guard !page.items.isEmpty else {
                return page.total == 0 ? "No books." : "No books on this page (\(page.total) in all)."
            }
            let rows = page.items.map { e in
                [
                    e.id.description, e.details.title, e.details.authors.joined(separator: ", "), e.details.isbn?.isbn13 ?? "",
                    "\(e.available)/\(e.copies)",
                ]
            }
            var footer = "\(page.offset + 1)-\(page.offset + page.items.count) of \(page.total)"
            if let next = page.nextOffset { footer += " (next page: --offset \(next))" }
            return table(["ID", "TITLE", "AUTHORS", "ISBN", "AVAILABLE"], rows, maxWidth: 40) + "\n" + footer
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one book.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The book's id.") var id: String

        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let entry = try await library.catalogue.showBook.execute(try BookID.parse(id), by: principal)
                try show(entry, global, verb: nil)
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Edit a book. Options not given are kept; an empty value clears an optional field.",
            discussion: "--author and --category replace the whole list when given.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The book's id.") var id: String
        @OptionGroup var fields: BookFields
        @Option(help: "The number of copies the library now owns.") var copies: Int?
        @Flag(help: "Accept a new ISBN that another book of the catalogue has already.") var allowDuplicate = false

        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let changes = BookChanges(
                    title: fields.title, authors: fields.authors.isEmpty ? nil : fields.authors, isbn: fields.isbn,
                    publisher: fields.publisher, categories: fields.categories.isEmpty ? nil : fields.categories,
                    coverURL: fields.coverURL, description: fields.description)
                let entry = try await library.catalogue.editBook.execute(
                    try BookID.parse(id), changes: changes, copies: copies, allowDuplicate: allowDuplicate, by: principal)
                try show(entry, global, verb: "Updated")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Withdraw one or several books: all of them, or none if any cannot be withdrawn.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The ids of the books to withdraw.") var ids: [String]

        func validate() throws {
            if ids.isEmpty { throw ValidationError("name at least one book id") }
        }

        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let bookIDs = try ids.map { id throws(NotFound) in try BookID.parse(id) }
                let count = try await library.catalogue.withdrawBooks.execute(bookIDs, by: principal)
                if global.json { try printJSON(["withdrawn": count]) } else { print("Withdrew \(books(count)).") }
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Withdraw every book in the catalogue. Needs --yes.",
            discussion: "Books that cannot be withdrawn (copies on loan) are kept and listed with the reason.")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Confirm that the whole catalogue is to be withdrawn.") var yes = false

        func run() async throws {
            try await reportingFailures {
                guard yes else { throw CLIFailure("refusing to clear the catalogue without --yes") }
                let (library, principal) = try await global.acting()
                let report = try await library.catalogue.clearCatalogue.execute(by: principal)
                if global.json {
                    try printJSON(
                        ClearJSON(
                            withdrawn: report.withdrawn.map(\.description),
                            kept: report.kept.map { ["id": $0.book.description, "reason": $0.rejection.description] }))
                    return
                }
                print("Withdrew \(books(report.withdrawn.count)).")
                for kept in report.kept { print("Kept \(kept.book): \(kept.rejection)") }
            }
        }
    }
}

/// "1 book", "3 books".
private func books(_ count: Int) -> String { "\(count) \(count == 1 ? "book" : "books")" }

private struct ClearJSON: Encodable {
    let withdrawn: [String]
    let kept: [[String: String]]
}

private struct PageJSON: Encodable {
    let items: [BookJSON]
    let total: Int
    let offset: Int
    let limit: Int
    let nextOffset: Int?
    init(_ page: Page<CatalogueEntry>) {
        items = page.items.map(BookJSON.init)
        total = page.total
        offset = page.offset
        limit = page.limit
        nextOffset = page.nextOffset
    }
}

/// Prints one book as JSON or as labelled lines.
private func show(_ e: CatalogueEntry, _ global: GlobalOptions, verb: String?) throws {
    if global.json { return try printJSON(BookJSON(e)) }
    if let verb { print("\(verb) \(e.id)") }
    let d = e.details
    let lines: [(String, String?)] = [
        ("ID", e.id.description), ("Title", d.title), ("Authors", d.authors.joined(separator: ", ")),
        ("ISBN", d.isbn?.isbn13), ("Publisher", d.publisher),
        ("Categories", d.categories.isEmpty ? nil : d.categories.joined(separator: ", ")),
        ("Copies", "\(e.copies) (\(e.available) available, \(e.onLoan) on loan)"),
        ("Cover", d.coverURL), ("Description", d.description),
    ]
    for case let (label, value?) in lines { print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + value) }
}
