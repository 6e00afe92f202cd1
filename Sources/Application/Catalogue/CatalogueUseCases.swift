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
        withdrawBooks = WithdrawBooks(runner: runner, catalogue: catalogue)
        clearCatalogue = ClearCatalogue(runner: runner, catalogue: catalogue)
        listBooks = ListBooks(catalogue: catalogue, privacy: CheckoutPrivacy(loans: loans))
        showBook = ShowBook(catalogue: catalogue, privacy: CheckoutPrivacy(loans: loans))
    }
}
