import APIContract
import Application
import ArgumentParser
import Domain

/// `shelfmark book ...`: the catalogue.
struct BookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book", abstract: t("cli.book.abstract"),
        subcommands: [Add.self, Import.self, List.self, Show.self, Edit.self, Delete.self, Clear.self])
}

/// The descriptive fields `add` and `edit` share.
struct BookFields: ParsableArguments {
    @Option(help: ArgumentHelp(t("cli.book.fields.title"))) var title: String?
    @Option(name: .customLong("author"), help: ArgumentHelp(t("cli.book.fields.authors"))) var authors: [String] = []
    @Option(help: ArgumentHelp(t("cli.book.fields.isbn"))) var isbn: String?
    @Option(help: ArgumentHelp(t("cli.book.fields.publisher"))) var publisher: String?
    @Option(name: .customLong("category"), help: ArgumentHelp(t("cli.book.fields.categories"))) var categories: [String] = []
    @Option(name: .customLong("cover-url"), help: ArgumentHelp(t("cli.book.fields.coverURL"), valueName: "url")) var coverURL: String?
    @Option(help: ArgumentHelp(t("cli.book.fields.description"))) var description: String?
}

extension BookCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.book.add.abstract"),
            usage: "shelfmark book add --title T --author A [--author B] [--isbn I] [--publisher P] [--category C]... [--copies N]",
            discussion: t("cli.book.add.discussion"))

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @OptionGroup var fields: BookFields
        @Option(parsing: .unconditional, help: ArgumentHelp(t("cli.book.add.copies"))) var copies = 1
        @Flag(help: ArgumentHelp(t("cli.book.add.allowDuplicate")))
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
            abstract: t("cli.book.import.abstract"),
            discussion: t("cli.book.import.discussion"))

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(
            name: .customLong("work"), help: ArgumentHelp(t("cli.book.import.workKey"), valueName: "key"))
        var workKey: String?
        @OptionGroup var fields: BookFields
        @Option(parsing: .unconditional, help: ArgumentHelp(t("cli.book.import.copies"))) var copies = 1
        @Flag(help: ArgumentHelp(t("cli.book.import.allowDuplicate")))
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
            abstract: t("cli.book.list.abstract"),
            discussion: t("cli.book.list.discussion"))

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("\(CatalogueSort.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "order"))
        var sort = CatalogueSort.newest.rawValue
        @Option(
            name: [.customShort("q"), .long],
            help: ArgumentHelp(
                t("cli.book.list.query"),
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
                    "\(number(e.available))/\(number(e.copies))", TableDates.day(e.addedAt),
                ]
            }
            return table(
                [
                    t("cli.column.id"), t("cli.column.title"), t("cli.column.authors"), "ISBN", t("cli.column.available"),
                    t("cli.column.added"),
                ], rows, maxWidth: 40) + "\n" + page.footer
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.book.show.abstract"), discussion: t("cli.book.show.discussion"))

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.book.show.id"), valueName: "book-id")) var id: String

        func run() async throws {
            let (library, principal) = try await global.acting()
            try show(try await library.catalogue.showBook.execute(try BookID.parse(id), by: principal), global, saying: nil)
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.book.edit.abstract"),
            discussion:
                t("cli.book.edit.discussion"))

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.book.edit.id"), valueName: "book-id")) var id: String
        @OptionGroup var fields: BookFields
        @Option(parsing: .unconditional, help: ArgumentHelp(t("cli.book.edit.copies"))) var copies: Int?
        @Flag(help: ArgumentHelp(t("cli.book.edit.allowDuplicate"))) var allowDuplicate = false

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
            abstract: t("cli.book.delete.abstract"),
            discussion: t("cli.book.delete.discussion"))

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.book.delete.ids"), valueName: "book-id")) var ids: [String]

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
            abstract: t("cli.book.clear.abstract"),
            discussion: t("cli.book.clear.discussion"))

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Flag(help: ArgumentHelp(t("cli.book.clear.yes"))) var yes = false

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
        (t("cli.book.label.id"), e.id.description), (t("cli.book.label.title"), d.title),
        (t("cli.book.label.authors"), d.authors.joined(separator: ", ")), ("ISBN", d.isbn?.isbn13),
        (t("cli.book.label.publisher"), d.publisher),
        (t("cli.book.label.categories"), d.categories.isEmpty ? nil : d.categories.joined(separator: ", ")),
        (t("cli.book.label.copies"), t("cli.book.copies", count: e.available, number(e.copies), number(e.available), number(e.onLoan))),
        (t("cli.book.label.cover"), d.coverURL), (t("cli.book.label.description"), d.description),
        (t("cli.book.label.added"), TableDates.minute(e.addedAt)), (t("cli.book.label.updated"), TableDates.minute(e.updatedAt)),
        (
            t("cli.book.label.lastOut"),
            e.lastCheckout.map { c in [TableDates.day(c.at), catalogue.borrower(of: c)].compactMap { $0 }.joined(separator: ", ") }
        ),
    ]
    // Values line up after the longest label of the language (12 columns in English).
    let width = max(12, (lines.map(\.0.count).max() ?? 0) + 1)
    for case let (label, value?) in lines { print(label.padding(toLength: width, withPad: " ", startingAt: 0) + value) }
}
