import Application
import Domain
import Foundation
import Wording

// Every list of the API in the one envelope: `PageInfo` (total, offset, limit, nextOffset)
// beside the page's `items`, mapped from the application's `Page`.

extension Components.Schemas.PageInfo {
    /// Where a page stands in its list; `nextOffset` is absent on the last page.
    public init<Item>(_ page: Page<Item>) {
        self.init(total: page.total, offset: page.offset, limit: page.limit, nextOffset: page.nextOffset)
    }
}

extension Components.Schemas.UserPage {
    /// A page of accounts.
    public init(_ page: Page<AccountSummary>) {
        self.init(value1: .init(page), value2: .init(items: page.items.map(Components.Schemas.User.init)))
    }
}

extension Components.Schemas.CountryPage {
    /// A page of the countries.
    public init(_ page: Page<Country>) {
        self.init(value1: .init(page), value2: .init(items: page.items.map(Components.Schemas.Country.init)))
    }
}

extension Components.Schemas.LoanPage {
    /// A page of loans; `overdue` judges each loan at the moment the caller speaks of.
    public init(_ page: Page<LoanSummary>, overdue: (LoanSummary) -> Bool) {
        self.init(value1: .init(page), value2: .init(items: page.items.map { .init($0, overdue: overdue($0)) }))
    }
}

extension Components.Schemas.NoticePage {
    /// A page of a member's notices with the number unread among all of them.
    public init(_ notices: NoticePage) {
        self.init(
            value1: .init(notices.page),
            value2: .init(unread: notices.unread, items: notices.items.map(Components.Schemas.Notice.init)))
    }
}

extension Components.Schemas.SearchPage {
    /// A page of the works found, `stale` when answered from the cache.
    public init(_ page: Application.SearchPage) {
        // The search's own next page, which stops at the deepest Open Library gives (found by an outside walk).
        let info = Components.Schemas.PageInfo(total: page.total, offset: page.offset, limit: page.limit, nextOffset: page.nextOffset)
        self.init(value1: info, value2: .init(stale: page.stale, items: page.results.map(Components.Schemas.Work.init)))
    }
}

extension Components.Schemas.HistoryPage {
    /// A page of a stream's events, its actors and changes worded by `catalogue`.
    public init(_ page: Page<Application.HistoryEntry>, in catalogue: any MessageCatalogue = Wording.reader) throws {
        self.init(value1: .init(page), value2: .init(items: try page.items.map { try .init($0, in: catalogue) }))
    }
}

extension Components.Schemas.BookPage {
    /// A page of the catalogue.
    public init(_ page: Page<CatalogueEntry>) {
        self.init(value1: .init(page), value2: .init(items: page.items.map { Components.Schemas.Book($0) }))
    }
}

extension Components.Schemas.BookmarkPage {
    /// A page of a member's bookmarks.
    public init(_ page: Page<BookmarkEntry>) {
        self.init(
            value1: .init(page),
            value2: .init(
                items: page.items.map { entry in
                    .init(
                        value1: .init(entry.work),
                        value2: .init(key: entry.key, bookId: entry.book?.description, bookmarkedAt: entry.bookmarkedAt))
                }))
    }
}
