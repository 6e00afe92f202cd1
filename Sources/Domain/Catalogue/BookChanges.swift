/// An edit: nil keeps a field; an empty string clears an optional one.
public struct BookChanges: Equatable, Sendable {
    public var title: String?
    public var authors: [String]?
    public var isbn: String?
    public var publisher: String?
    public var categories: [String]?
    public var coverURL: String?
    public var description: String?

    public init(
        title: String? = nil, authors: [String]? = nil, isbn: String? = nil, publisher: String? = nil,
        categories: [String]? = nil, coverURL: String? = nil, description: String? = nil
    ) {
        self.title = title
        self.authors = authors
        self.isbn = isbn
        self.publisher = publisher
        self.categories = categories
        self.coverURL = coverURL
        self.description = description
    }

    /// The draft that results from applying these changes to existing details.
    public func applied(to details: BookDetails) -> BookDraft {
        var draft = BookDraft(details)
        if let title { draft.title = title }
        if let authors { draft.authors = authors }
        if let isbn { draft.isbn = isbn }
        if let publisher { draft.publisher = publisher }
        if let categories { draft.categories = categories }
        if let coverURL { draft.coverURL = coverURL }
        if let description { draft.description = description }
        return draft
    }
}
