import Domain
import Foundation
import Testing

/// Given events, when a command, then events or a rejection: on the pure functions only.
@Suite("Book aggregate")
struct BookTests {
    let id = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)
    let draft = BookDraft(title: "  Dune ", authors: ["Frank Herbert"], isbn: "978-0-441-17271-9", categories: ["SF", "sf", " classics "])
    var details: BookDetails {
        BookDetails(title: "Dune", authors: ["Frank Herbert"], isbn: try! ISBN(parsing: "9780441172719"), categories: ["SF", "classics"])
    }
    var added: BookEvent { .added(BookAdded(book: id, details: details, copies: 2)) }

    func given(_ events: BookEvent...) -> BookState { BookAggregate.fold(events) }

    func when(_ command: BookCommand, _ state: BookState) -> Result<[BookEvent], BookRejection> {
        Result { () throws(BookRejection) in try BookAggregate.decide(command, state) }
    }

    @Test func addingNormalisesTheDetails() {
        #expect(when(.add(id, draft, copies: 2), given()) == .success([added]))
    }

    /// One title, one spelling: a combining accent (as some apps and keyboards send it) is stored
    /// composed, so "café" is found, sorted and compared as one title however it was typed.
    @Test func textIsStoredComposedWhateverTheKeyboardSent() {
        var errors: [FieldError] = []
        let decomposed = BookDraft(
            title: "Cafe\u{0301} society", authors: ["Zoe\u{0308}"], publisher: "E\u{0301}ditions", categories: ["Ro\u{0302}le"])
        let details = decomposed.validate(into: &errors)
        #expect(errors.isEmpty)
        #expect(details.title.unicodeScalars.elementsEqual("Caf\u{00E9} society".unicodeScalars))
        #expect(details.authors[0].unicodeScalars.elementsEqual("Zo\u{00EB}".unicodeScalars))
        #expect(details.publisher?.unicodeScalars.elementsEqual("\u{00C9}ditions".unicodeScalars) == true)
        #expect(details.categories.first?.unicodeScalars.elementsEqual("R\u{00F4}le".unicodeScalars) == true)
    }

    @Test func addingReportsEveryInvalidField() {
        let bad = BookDraft(title: " ", authors: [" "], isbn: "978-0-441-17271-0", coverURL: "ftp://x")
        let errors: [FieldError] = [
            FieldError("title", .required),
            FieldError("authors", .required),
            FieldError("isbn", .notAnISBN("978-0-441-17271-0", .wrongCheckDigit)),
            FieldError("coverUrl", .notAWebAddress),
            FieldError("copies", .noCopies(wouldBe: 0)),
        ]
        #expect(when(.add(id, bad, copies: 0), given()) == .failure(.invalid(errors)))
    }

    @Test func overlongTitleIsRefused() {
        let long = BookDraft(title: String(repeating: "a", count: BookLimits.title + 1), authors: ["A"])
        #expect(when(.add(id, long, copies: 1), given()) == .failure(.invalid([FieldError("title", .tooLong(max: 500))])))
    }

    @Test func addingTheSameBookAgainDecidesNothing() {
        #expect(when(.add(id, draft, copies: 2), given(added)) == .success([]))
    }

    @Test func addingOtherDetailsUnderAnExistingIDIsRefused() {
        #expect(when(.add(id, draft, copies: 3), given(added)) == .failure(.alreadyInCatalogue(id)))
    }

    @Test func editingChangesOnlyWhatIsGiven() {
        var expected = details
        expected.publisher = "Chilton"
        expected.isbn = nil
        let changes = BookChanges(isbn: "", publisher: " Chilton ")
        #expect(when(.edit(changes), given(added)) == .success([.edited(BookEdited(book: id, details: expected))]))
    }

    @Test func editingToTheSameValuesDecidesNothing() {
        #expect(when(.edit(BookChanges(title: "Dune ", authors: ["Frank Herbert"])), given(added)) == .success([]))
    }

    @Test func editingWithInvalidValuesIsRefused() {
        #expect(
            when(.edit(BookChanges(authors: [])), given(added))
                == .failure(.invalid([FieldError("authors", .required)])))
    }

    @Test func commandsOnAMissingOrWithdrawnBookAreRefused() {
        let withdrawn = BookEvent.withdrawn(BookWithdrawn(book: id))
        #expect(when(.edit(BookChanges(title: "X")), given()) == .failure(.notInCatalogue))
        #expect(when(.addCopies(1), given(added, withdrawn)) == .failure(.notInCatalogue))
        #expect(when(.withdraw, given()) == .failure(.notInCatalogue))
    }

    @Test func copiesCanBeAddedRemovedAndSet() {
        #expect(when(.addCopies(3), given(added)) == .success([.copiesAdded(CopiesChanged(book: id, count: 3, total: 5))]))
        #expect(when(.removeCopies(1), given(added)) == .success([.copiesRemoved(CopiesChanged(book: id, count: 1, total: 1))]))
        #expect(when(.setCopies(4), given(added)) == .success([.copiesAdded(CopiesChanged(book: id, count: 2, total: 4))]))
        #expect(when(.setCopies(2), given(added)) == .success([]))
    }

    @Test func theLibraryKeepsAtLeastOneCopy() {
        #expect(
            when(.removeCopies(2), given(added))
                == .failure(.invalid([FieldError("count", .noCopies(wouldBe: 0))])))
        #expect(
            when(.setCopies(0), given(added))
                == .failure(.invalid([FieldError("copies", .noCopies(wouldBe: 0))])))
    }

    @Test func copiesNeverFallBelowThoseOnLoan() {
        let lent = BookState.inCatalogue(CataloguedBook(id: id, details: details, copies: 3, onLoan: 2))
        #expect(when(.setCopies(1), lent) == .failure(.fewerCopiesThanOnLoan(book: id, requested: 1, onLoan: 2)))
        #expect(when(.setCopies(2), lent) == .success([.copiesRemoved(CopiesChanged(book: id, count: 1, total: 2))]))
    }

    @Test func withdrawingIsIdempotent() {
        let withdrawn = BookEvent.withdrawn(BookWithdrawn(book: id))
        #expect(when(.withdraw, given(added)) == .success([withdrawn]))
        #expect(when(.withdraw, given(added, withdrawn)) == .success([]))
    }

    @Test func aBookWithCopiesOnLoanCannotBeWithdrawn() {
        let lent = BookState.inCatalogue(CataloguedBook(id: id, details: details, copies: 3, onLoan: 1))
        #expect(when(.withdraw, lent) == .failure(.copiesOnLoan(book: id, onLoan: 1)))
    }

    @Test func evolvingFollowsTheHistory() {
        let state = given(added, .copiesAdded(CopiesChanged(book: id, count: 1, total: 3)))
        #expect(state == .inCatalogue(CataloguedBook(id: id, details: details, copies: 3)))
    }
}
