import APIContract
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
    @Option(name: .customLong("cover-url"), help: ArgumentHelp("An http(s) URL of the cover image.", valueName: "url")) var coverURL:
        String?
    @Option(help: "A description or blurb.") var description: String?
}

extension BookCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Add a book to the catalogue.",
            usage: "shelfmark book add --title T --author A [--author B] [--isbn I] [--publisher P] [--category C]... [--copies N]",
            discussion: "With --json, prints what POST /api/v1/books answers.")

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @OptionGroup var fields: BookFields
        @Option(help: "How many copies the library owns.") var copies = 1
        @Flag(help: "Add a second record of an ISBN the catalogue has already (refused otherwise, naming that book).")
        var allowDuplicate = false

        func run() async throws {
            let (library, principal) = try await global.acting()
            let draft = BookDraft(
                title: fields.title ?? "", authors: fields.authors, isbn: fields.isbn, publisher: fields.publisher,
                categories: fields.categories, coverURL: fields.coverURL, description: fields.description)
            let entry = try await library.catalogue.addBook.execute(draft, copies: copies, allowDuplicate: allowDuplicate, by: principal)
            try show(entry, global, saying: say(.bookAdded(entry.name)))
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Add a book from Open Library by ISBN (or --work KEY); options given override what it says.",
            discussion: "With --json, prints what POST /api/v1/books/import answers.")

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(
            name: .customLong("work"), help: ArgumentHelp("An Open Library work key, e.g. OL27448W, instead of --isbn.", valueName: "key"))
        var workKey: String?
        @OptionGroup var fields: BookFields
        @Option(help: "How many copies the library owns.") var copies = 1
        @Flag(help: "Add a second record of an ISBN the catalogue has already (refused otherwise, naming that book).")
        var allowDuplicate = false

        func validate() throws {
            if (fields.isbn == nil) == (workKey == nil) { throw usage(.exactlyOneOf(["--isbn", "--work"])) }
        }

        func run() async throws {
            let (library, principal) = try await global.acting()
            let overrides = BookChanges(
                title: fields.title, authors: fields.authors.isEmpty ? nil : fields.authors, publisher: fields.publisher,
                categories: fields.categories.isEmpty ? nil : fields.categories, coverURL: fields.coverURL,
                description: fields.description)
            let entry = try await library.importBook.execute(
                isbn: fields.isbn, workKey: workKey, overrides: overrides, copies: copies, allowDuplicate: allowDuplicate, by: principal)
            try show(entry, global, saying: say(.bookImported(entry.name)))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "List the catalogue, sorted and paged, optionally searched.",
            discussion: "With --json, prints what GET /api/v1/books answers (with --all, one page holding every book).")

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("\(CatalogueSort.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "order"))
        var sort = CatalogueSort.newest.rawValue
        @Option(
            name: [.customShort("q"), .long],
            help: ArgumentHelp(
                "Words to find in title, authors, ISBN, publisher or categories; author:, title:, isbn: or publisher: limits a word to one field.",
                valueName: "words"))
        var query: String?
        @OptionGroup var paging: PagingOptions

        func validate() throws {
            guard CatalogueSort(rawValue: sort) != nil else {
                throw usage("--sort", .notOneOf(CatalogueSort.allCases.map(\.rawValue)))
            }
        }

        func run() async throws {
            let query = CatalogueQuery(sort: CatalogueSort(rawValue: sort) ?? .newest, text: query)
            let (library, principal) = try await global.acting()
            let page = try await paging.fetch { try await library.catalogue.listBooks.execute(query, page: $0, by: principal) }
            if global.json { return try printJSON(Components.Schemas.BookPage(page)) }
            print(Self.render(page))
        }

        static func render(_ page: Page<CatalogueEntry>) -> String {
            guard !page.items.isEmpty else {
                return page.total == 0 ? say(.nothingListed(.books)) : say(.nothingOnThisPage(total: page.total))
            }
            let rows = page.items.map { e in
                [
                    e.id.description, e.details.title, e.details.authors.joined(separator: ", "), e.details.isbn?.isbn13 ?? "",
                    "\(e.available)/\(e.copies)", TableDates.day(e.addedAt),
                ]
            }
            return table(["ID", "TITLE", "AUTHORS", "ISBN", "AVAILABLE", "ADDED"], rows, maxWidth: 40) + "\n" + page.footer
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Show one book.", discussion: "With --json, prints what GET /api/v1/books/{id} answers.")

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The book's id.", valueName: "book-id")) var id: String

        func run() async throws {
            let (library, principal) = try await global.acting()
            try show(try await library.catalogue.showBook.execute(try BookID.parse(id), by: principal), global, saying: nil)
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Edit a book. Options not given are kept; an empty value clears an optional field.",
            discussion:
                "--author and --category replace the whole list when given. With --json, prints what PATCH /api/v1/books/{id} answers.")

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The book's id.", valueName: "book-id")) var id: String
        @OptionGroup var fields: BookFields
        @Option(help: "The number of copies the library now owns.") var copies: Int?
        @Flag(help: "Accept a new ISBN that another book of the catalogue has already.") var allowDuplicate = false

        func run() async throws {
            let (library, principal) = try await global.acting()
            let changes = BookChanges(
                title: fields.title, authors: fields.authors.isEmpty ? nil : fields.authors, isbn: fields.isbn,
                publisher: fields.publisher, categories: fields.categories.isEmpty ? nil : fields.categories,
                coverURL: fields.coverURL, description: fields.description)
            let entry = try await library.catalogue.editBook.execute(
                try BookID.parse(id), changes: changes, copies: copies, allowDuplicate: allowDuplicate, by: principal)
            try show(entry, global, saying: say(.bookUpdated(entry.name)))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Withdraw one or several books: all of them, or none if any cannot be withdrawn.",
            discussion: "With --json, prints nothing, as DELETE /api/v1/books/{id} answers 204.")

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The books to withdraw.", valueName: "book-id")) var ids: [String]

        func validate() throws {
            if ids.isEmpty { throw usage("<book-id>", .required) }
        }

        func run() async throws {
            let (library, principal) = try await global.acting()
            let bookIDs = try ids.map { id throws(NotFound) in try BookID.parse(id) }
            let count = try await library.catalogue.withdrawBooks.execute(bookIDs, by: principal)
            if !global.json { print(say(.withdrawn(count: count))) }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Withdraw every book in the catalogue. Needs --yes.",
            discussion: """
                Books that cannot be withdrawn (copies on loan) are kept and listed with the reason. \
                With --json, prints what DELETE /api/v1/books?confirm=true answers.
                """)

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Flag(help: "Confirm that the whole catalogue is to be withdrawn.") var yes = false

        func run() async throws {
            guard yes else { throw InvalidInput([FieldError("--yes", .confirmationNeeded)]) }
            let (library, principal) = try await global.acting()
            let report = try await library.catalogue.clearCatalogue.execute(by: principal)
            if global.json { return try printJSON(Components.Schemas.ClearReport(report, in: catalogue)) }
            print(say(.withdrawn(count: report.withdrawn.count)))
            for kept in report.kept { print(say(.kept(because: kept.message))) }
        }
    }
}

/// Prints one book as the API's JSON or as labelled lines, after `saying` what was done.
private func show(_ e: CatalogueEntry, _ global: GlobalOptions, saying done: String?) throws {
    if global.json { return try printJSON(Components.Schemas.Book(e)) }
    if let done { print(done) }
    let d = e.details
    let lines: [(String, String?)] = [
        ("ID", e.id.description), ("Title", d.title), ("Authors", d.authors.joined(separator: ", ")),
        ("ISBN", d.isbn?.isbn13), ("Publisher", d.publisher),
        ("Categories", d.categories.isEmpty ? nil : d.categories.joined(separator: ", ")),
        ("Copies", "\(e.copies) (\(e.available) available, \(e.onLoan) on loan)"),
        ("Cover", d.coverURL), ("Description", d.description),
        ("Added", TableDates.minute(e.addedAt)), ("Updated", TableDates.minute(e.updatedAt)),
        (
            "Last out",
            e.lastCheckout.map { c in [TableDates.day(c.at), catalogue.borrower(of: c)].compactMap { $0 }.joined(separator: ", ") }
        ),
    ]
    for case let (label, value?) in lines { print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + value) }
}
