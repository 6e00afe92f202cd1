/// The descriptive record of a catalogue book, validated and normalised.
public struct BookDetails: Equatable, Sendable, Codable {
    public var title: String
    public var authors: [String]
    public var isbn: ISBN?
    public var publisher: String?
    public var categories: [String]
    public var coverURL: String?
    public var description: String?

    public init(
        title: String, authors: [String], isbn: ISBN? = nil, publisher: String? = nil,
        categories: [String] = [], coverURL: String? = nil, description: String? = nil
    ) {
        self.title = title
        self.authors = authors
        self.isbn = isbn
        self.publisher = publisher
        self.categories = categories
        self.coverURL = coverURL
        self.description = description
    }

    enum CodingKeys: String, CodingKey {
        case title, authors, isbn, publisher, categories, description
        case coverURL = "cover_url"
    }
}

/// Book details as a person typed them: nothing checked yet.
public struct BookDraft: Equatable, Sendable {
    public var title: String
    public var authors: [String]
    public var isbn: String?
    public var publisher: String?
    public var categories: [String]
    public var coverURL: String?
    public var description: String?

    public init(
        title: String, authors: [String], isbn: String? = nil, publisher: String? = nil,
        categories: [String] = [], coverURL: String? = nil, description: String? = nil
    ) {
        self.title = title
        self.authors = authors
        self.isbn = isbn
        self.publisher = publisher
        self.categories = categories
        self.coverURL = coverURL
        self.description = description
    }

    /// The draft of details already validated, for editing on top of them.
    public init(_ details: BookDetails) {
        self.init(
            title: details.title, authors: details.authors, isbn: details.isbn?.isbn13,
            publisher: details.publisher, categories: details.categories,
            coverURL: details.coverURL, description: details.description)
    }
}

/// Length limits of the catalogue record.
public enum BookLimits {
    public static let title = 500
    public static let author = 200
    public static let authors = 20
    public static let publisher = 200
    public static let category = 60
    public static let categories = 30
    public static let coverURL = 2048
    public static let description = 10_000
    public static let copies = 10_000
}
