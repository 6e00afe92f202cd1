import Domain

/// The catalogue's use cases, as the CLI and the HTTP API both call them.
public struct CatalogueUseCases: Sendable {
    public let addBook: AddBook
    public let editBook: EditBook
    public let withdrawBooks: WithdrawBooks
    public let clearCatalogue: ClearCatalogue
    public let listBooks: ListBooks
    public let showBook: ShowBook
    /// The versions of books, loans and accounts clients see as ETags (they share the commands' state cache).
    public let versions: ResourceVersions

    /// `policy` says how long a copy added for a waiting member is kept for them.
    public init(runner: CommandRunner, catalogue: any Catalogue, loans: any LoanRegister, policy: LoanPolicy = LoanPolicy()) {
        addBook = AddBook(runner: runner, catalogue: catalogue)
        editBook = EditBook(runner: runner, catalogue: catalogue, policy: policy)
        withdrawBooks = WithdrawBooks(runner: runner, catalogue: catalogue)
        clearCatalogue = ClearCatalogue(runner: runner, catalogue: catalogue)
        listBooks = ListBooks(catalogue: catalogue, privacy: CheckoutPrivacy(loans: loans))
        showBook = ShowBook(catalogue: catalogue, privacy: CheckoutPrivacy(loans: loans))
        versions = ResourceVersions(runner: runner)
    }
}
