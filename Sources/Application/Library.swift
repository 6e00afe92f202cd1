import Domain

/// Everything an adapter may ask of the library. A class: every route's handler holds it, and a
/// request copies its handler, so a copy is one reference rather than every use case's ports.
public final class Library: Sendable {
    public let catalogue: CatalogueUseCases
    public let accounts: AccountUseCases
    public let circulation: CirculationUseCases
    /// The front desk: lending by card or email, members' records, library cards.
    public let desk: DeskUseCases
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
    public let backUp: BackUpLibrary
    /// Keys old client apps carry in their URLs (the Prolific apps'), each acting as a librarian.
    public let appKeys: AppKeyUseCases
    /// The small stable numbers the Prolific API names books by.
    public let numbers: CatalogueNumbering
    /// Safe retries of the requests that create something (`Idempotency-Key`).
    public let retries: SafeRetries
    /// How often a client address and an account may search and change things.
    public let rates: RequestRates

    /// Without `rates`, the default rates (`RateSettings`) on the commands' clock.
    public init(
        catalogue: CatalogueUseCases, accounts: AccountUseCases, circulation: CirculationUseCases, search: SearchBooks,
        bookmarks: Bookmarks, importBook: ImportBook, verifyLog: VerifyLog, exportLog: ExportLog, replayer: any LogReplayer,
        health: any HealthCheck, readModels: any ReadModelRebuilder, backup: any LibraryBackup, appKeys: AppKeyDependencies,
        numbers: any CatalogueNumbers, retries: SafeRetries, rates: RequestRates? = nil
    ) {
        self.retries = retries
        self.rates = rates ?? RequestRates(settings: RateSettings(), clock: catalogue.versions.runner.clock)
        self.appKeys = AppKeyUseCases(appKeys, members: accounts.members)
        self.numbers = CatalogueNumbering(numbers: numbers)
        replay = ReplayLog(replayer: replayer)
        timeTravel = TimeTravel(replayer: replayer, members: accounts.members)
        self.exportLog = exportLog
        self.history = AggregateHistory(archive: exportLog.archive, members: accounts.members)
        self.verifyLog = verifyLog
        self.importBook = importBook
        self.search = search
        self.bookmarks = bookmarks
        self.catalogue = catalogue
        self.accounts = accounts
        self.circulation = circulation
        desk = DeskUseCases(accounts: accounts, circulation: circulation)
        self.health = health
        self.readModels = readModels
        self.backUp = BackUpLibrary(backup: backup, anchorFile: verifyLog.anchorFile)
    }
}
