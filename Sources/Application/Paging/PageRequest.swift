import Domain

/// Which slice of a list to answer. Every list of the library (API and CLI alike) is paged by
/// one of these, so the default, the maximum and the refusal of a bad value are said once, here.
public struct PageRequest: Hashable, Sendable {
    /// Items per page when the caller does not say.
    public static let defaultLimit = 20
    /// The most items one page may hold.
    public static let maxLimit = 100
    /// The furthest a page may start: deeper than any list here, small enough that no sum overflows.
    public static let maxOffset = 1_000_000

    /// The first page at the default size.
    public static let first = PageRequest(checkedLimit: defaultLimit, offset: 0)

    /// How many items at most.
    public let limit: Int
    /// How many items to skip; past the end the page is empty (not an error).
    public let offset: Int

    /// A page as a caller asked for it (nil: the default); a value out of range is refused with
    /// a field error on `limit` or `offset` that says the allowed range.
    public init(limit: Int? = nil, offset: Int? = nil) throws(InvalidInput) {
        let errors = Self.problems(limit: limit, offset: offset)
        guard errors.isEmpty else { throw InvalidInput(errors) }
        self.init(checkedLimit: limit ?? Self.defaultLimit, offset: offset ?? 0)
    }

    private init(checkedLimit: Int, offset: Int) {
        self.limit = checkedLimit
        self.offset = offset
    }

    /// The paging rule: field errors for a limit or offset out of range (none when both fit).
    public static func problems(limit: Int?, offset: Int?) -> [FieldError] {
        var errors: [FieldError] = []
        if let limit, !(1...maxLimit).contains(limit) { errors.append(FieldError("limit", .outOfRange(min: 1, max: maxLimit))) }
        if let offset, !(0...maxOffset).contains(offset) { errors.append(FieldError("offset", .outOfRange(min: 0, max: maxOffset))) }
        return errors
    }
}
