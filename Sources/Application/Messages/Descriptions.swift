import Domain

// The domain's rejections and field errors carry no words; these descriptions say them in
// English through the catalogue, so logs and test failures read as a person would.

extension FieldError: CustomStringConvertible {
    public var description: String { Catalogues.english.text(self) }
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
    public var description: String { Catalogues.english.text(BookRefused.message(self, book: nil, title: nil)) }
}

extension ListenProblem: CustomStringConvertible {
    public var description: String { Catalogues.english.text(.cannotListen(self)) }
}
