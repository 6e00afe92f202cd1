import Domain

/// The small stable numbers the Prolific API names books by (`CatalogueNumbers`), both ways.
public struct CatalogueNumbering: Sendable {
    let numbers: any CatalogueNumbers

    public init(numbers: any CatalogueNumbers) { self.numbers = numbers }

    /// The book's number; `NotFound` when the book was never added.
    public func number(of book: BookID) async throws -> Int {
        guard let number = try await numbers.number(of: book) else { throw NotFound(.book, book.description) }
        return number
    }

    /// The book numbered `number`; `NotFound` when no book ever had the number.
    public func book(numbered number: Int) async throws -> BookID {
        guard let book = try await numbers.book(numbered: number) else { throw NotFound(.book, String(number)) }
        return book
    }

    /// Every book in the catalogue with its number, by number.
    public func numbered() async throws -> [(number: Int, book: BookID)] {
        try await numbers.numbered()
    }
}
