import Domain
import Foundation
import Testing

/// One record per ISBN unless a second is asked for: given claims, when a command, then events or a rejection.
@Suite("ISBN claim aggregate")
struct ISBNClaimTests {
    let isbn = try! ISBN(parsing: "9780441172719")
    let first = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)
    let second = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b2")!)

    func claimed(_ book: BookID) -> ISBNClaimEvent { .claimed(ISBNHolder(isbn: isbn, book: book)) }
    func released(_ book: BookID) -> ISBNClaimEvent { .released(ISBNHolder(isbn: isbn, book: book)) }
    func given(_ events: ISBNClaimEvent...) -> ISBNClaimState { ISBNClaimAggregate.fold(events) }

    func when(_ command: ISBNClaimCommand, _ state: ISBNClaimState) -> Result<[ISBNClaimEvent], ISBNClaimRejection> {
        Result { () throws(ISBNClaimRejection) in try ISBNClaimAggregate.decide(command, state) }
    }

    @Test func aFreeISBNIsClaimed() {
        #expect(when(.claim(isbn, by: first, allowDuplicate: false), given()) == .success([claimed(first)]))
    }

    @Test func aHeldISBNIsRefusedNamingTheBookThatHasIt() {
        #expect(when(.claim(isbn, by: second, allowDuplicate: false), given(claimed(first))) == .failure(.taken(by: first)))
    }

    @Test func aSecondRecordIsMadeWhenAskedFor() {
        #expect(when(.claim(isbn, by: second, allowDuplicate: true), given(claimed(first))) == .success([claimed(second)]))
        #expect(given(claimed(first), claimed(second)).holders == [first, second])
    }

    @Test func claimingAgainDecidesNothing() {
        let state = given(claimed(first))
        #expect(when(.claim(isbn, by: first, allowDuplicate: false), state) == .success([]))
    }

    @Test func aReleasedISBNIsFreeAgain() {
        let state = given(claimed(first))
        #expect(when(.release(isbn, by: first), state) == .success([released(first)]))
        #expect(
            when(.claim(isbn, by: second, allowDuplicate: false), given(claimed(first), released(first))) == .success([claimed(second)]))
        #expect(when(.release(isbn, by: first), given(claimed(first), released(first))) == .success([]))
    }

    @Test func theOldestHolderIsNamedWhileDuplicatesRemain() {
        let state = given(claimed(first), claimed(second), released(first))
        #expect(when(.claim(isbn, by: BookID(UUID()), allowDuplicate: false), state) == .failure(.taken(by: second)))
    }

    @Test func booksCataloguedBeforeClaimsAreRecordedByTheFirstEvent() {
        let older = ISBNClaimState.catalogued([first])
        #expect(when(.claim(isbn, by: second, allowDuplicate: false), older) == .failure(.taken(by: first)))
        #expect(when(.claim(isbn, by: second, allowDuplicate: true), older) == .success([claimed(first), claimed(second)]))
        #expect(when(.release(isbn, by: first), older) == .success([claimed(first), released(first)]))
        #expect(ISBNClaimAggregate.fold([claimed(first), released(first)], from: older) == ISBNClaimState())
    }

    @Test func aBookInTheCatalogueHoldsItsISBNAndAWithdrawnOneNone() {
        let book = CataloguedBook(id: first, details: BookDetails(title: "Dune", authors: ["Frank Herbert"], isbn: isbn), copies: 1)
        #expect(BookState.inCatalogue(book).heldISBN == isbn)
        #expect(BookState.withdrawn(first).heldISBN == nil)
        #expect(BookState.absent.heldISBN == nil)
    }
}
