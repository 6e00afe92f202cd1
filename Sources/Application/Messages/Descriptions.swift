import Domain

// The domain's rejections and field errors carry no words; these descriptions name them as
// values (`title: tooLong(max: 200)`) for logs and test failures. People read them worded by an
// adapter's catalogue, in their language.

extension FieldError: CustomStringConvertible {
    public var description: String { "\(field): \(problem)" }
}

extension LoanRejection: CustomStringConvertible {
    public var description: String { LoanRefused(self).description }
}

extension PatronRejection: CustomStringConvertible {
    public var description: String { LoanRefused(self).description }
}

extension HoldRejection: CustomStringConvertible {
    public var description: String { LoanRefused(self).description }
}

extension SearchUnavailable: MessageConvertible {
    public var message: Message { .upstreamUnavailable(.openLibrary) }
}

extension BookRejection: CustomStringConvertible {
    public var description: String { "\(BookRefused.message(self, book: nil, title: nil))" }
}
