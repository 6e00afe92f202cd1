/// The catalogue's use cases, as the CLI and the HTTP API both call them.
public struct CatalogueUseCases: Sendable {
    public let addBook: AddBook
    public let editBook: EditBook
    public let withdrawBooks: WithdrawBooks
    public let clearCatalogue: ClearCatalogue
    public let listBooks: ListBooks
    public let showBook: ShowBook

    public init(runner: CommandRunner, catalogue: any Catalogue, loans: any LoanRegister) {
        addBook = AddBook(runner: runner, catalogue: catalogue)
        editBook = EditBook(runner: runner, catalogue: catalogue)
        withdrawBooks = WithdrawBooks(runner: runner)
        clearCatalogue = ClearCatalogue(runner: runner, catalogue: catalogue)
        listBooks = ListBooks(catalogue: catalogue, privacy: CheckoutPrivacy(loans: loans))
        showBook = ShowBook(catalogue: catalogue, privacy: CheckoutPrivacy(loans: loans))
    }
}

/// Everything an adapter may ask of the library.
public struct Library: Sendable {
    public let catalogue: CatalogueUseCases
    public let accounts: AccountUseCases
    public let circulation: CirculationUseCases
    public let search: SearchBooks
    public let bookmarks: Bookmarks
    public let importBook: ImportBook
    public let verifyLog: VerifyLog
    public let exportLog: ExportLog
    public let history: AggregateHistory
    public let replay: ReplayLog
    public let timeTravel: TimeTravel
    public let health: any HealthCheck
    public let readModels: any ReadModelRebuilder

    public init(
        catalogue: CatalogueUseCases, accounts: AccountUseCases, circulation: CirculationUseCases, search: SearchBooks,
        bookmarks: Bookmarks, importBook: ImportBook, verifyLog: VerifyLog, exportLog: ExportLog, replayer: any LogReplayer,
        health: any HealthCheck, readModels: any ReadModelRebuilder
    ) {
        replay = ReplayLog(replayer: replayer)
        timeTravel = TimeTravel(replayer: replayer, claims: accounts.changeRole)
        self.exportLog = exportLog
        self.history = AggregateHistory(archive: exportLog.archive, claims: accounts.changeRole)
        self.verifyLog = verifyLog
        self.importBook = importBook
        self.search = search
        self.bookmarks = bookmarks
        self.catalogue = catalogue
        self.accounts = accounts
        self.circulation = circulation
        self.health = health
        self.readModels = readModels
    }
}
