/// One page of a list, with what is needed to fetch the next: the envelope of every list.
public struct Page<Item: Sendable>: Sendable {
    public let items: [Item]
    /// How many items the whole list holds.
    public let total: Int
    public let offset: Int
    public let limit: Int

    public init(items: [Item], total: Int, offset: Int, limit: Int) {
        self.items = items
        self.total = total
        self.offset = offset
        self.limit = limit
    }

    /// The items a read model found for `request`, out of `total`.
    public init(items: [Item], total: Int, of request: PageRequest) {
        self.init(items: items, total: total, offset: request.offset, limit: request.limit)
    }

    /// The requested page of a list held whole in memory (small lists only, such as the countries).
    public init(slicing all: [Item], _ request: PageRequest) {
        let start = min(request.offset, all.count)
        let end = start + min(request.limit, all.count - start)
        self.init(items: Array(all[start..<end]), total: all.count, of: request)
    }

    /// The offset of the next page, or nil on the last one.
    public var nextOffset: Int? { offset + items.count < total && !items.isEmpty ? offset + items.count : nil }

    /// The same page with its items transformed (as a whole, so a transform may read in bulk).
    public func with<Other: Sendable>(_ transform: ([Item]) async throws -> [Other]) async rethrows -> Page<Other> {
        Page<Other>(items: try await transform(items), total: total, offset: offset, limit: limit)
    }

    /// Every item of a list, walking its pages at the largest size (the CLI's `--all`).
    public static func all(_ fetch: (PageRequest) async throws -> Page<Item>) async throws -> [Item] {
        var items: [Item] = []
        var request = try PageRequest(limit: PageRequest.maxLimit)
        while true {
            let page = try await fetch(request)
            items += page.items
            guard let next = page.nextOffset else { return items }
            request = try PageRequest(limit: PageRequest.maxLimit, offset: next)
        }
    }
}

extension Page: Equatable where Item: Equatable {}
