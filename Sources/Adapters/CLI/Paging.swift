import Application
import ArgumentParser

/// `--limit`, `--offset` and `--all`: every list command pages as the API does (`PageRequest`:
/// the same default, maximum and refusals), and `--all` follows the pages to the end.
/// Numbers here and in every command are read unconditionally: `--offset -1` is the value -1,
/// refused in the library's words, not an option and a "missing value".
struct PagingOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(t("cli.paging.limit", "\(PageRequest.maxLimit)", "\(PageRequest.defaultLimit)", "\(PageRequest.maxLimit)")))
    var limit: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp(t("cli.paging.offset"))) var offset: Int?
    @Flag(help: ArgumentHelp(t("cli.paging.all"))) var all = false

    /// One page as asked, or with `--all` every page from the offset on gathered into one: its
    /// `items` all of them, `limit` their number, `total` the list's, and no next page.
    func fetch<Item>(_ page: (PageRequest) async throws -> Page<Item>) async throws -> Page<Item> {
        guard all else { return try await page(try PageRequest(limit: limit, offset: offset)) }
        let start = try PageRequest(limit: limit ?? PageRequest.maxLimit, offset: offset)
        var (request, items, total) = (start, [Item](), 0)
        while true {
            let answer = try await page(request)
            items += answer.items
            total = answer.total
            guard let next = answer.nextOffset else { break }
            request = try PageRequest(limit: start.limit, offset: next)
        }
        return Page(items: items, total: total, offset: start.offset, limit: items.count)
    }
}
