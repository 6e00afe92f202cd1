import Domain
import Foundation
import Testing

/// Library cards: the number's check digits, its claim, and the account's one card.
@Suite("Library cards")
struct LibraryCardTests {
    let ada = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let bob = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)

    @Test func aSerialGetsTheISO7064CheckDigitsThatLeaveOneModulo97() throws {
        // 2741038500 mod 97 = 84, and 98 - 84 = 14: 2741038514 mod 97 = 1.
        let card = CardNumber(serial: 27_410_385)
        #expect(card.digits == "2741038514")
        #expect(card.grouped == "27410 38514")
        #expect(card.serial == 27_410_385)
        #expect(CardNumber(serial: 0).digits == "0000000098")
        #expect(CardNumber(serial: 99_999_999).digits == "9999999952")
        #expect(try CardNumber(parsing: "27410 38514") == card)
        #expect(try CardNumber(parsing: " 2741-0385-14 ") == card)
    }

    @Test func everyMistypedDigitIsRefusedBeforeAnyLookup() {
        let digits = Array("2741038514")
        for index in digits.indices {
            for digit in "0123456789" where digit != digits[index] {
                var typo = digits
                typo[index] = digit
                #expect(throws: CardNumber.Problem.wrongCheckDigits) { try CardNumber(parsing: String(typo)) }
            }
        }
    }

    @Test func everyTwoDigitsSwappedAreRefused() {
        let digits = Array("2741038514")
        for index in digits.indices.dropLast() where digits[index] != digits[index + 1] {
            var swapped = digits
            swapped.swapAt(index, index + 1)
            #expect(throws: CardNumber.Problem.wrongCheckDigits) { try CardNumber(parsing: String(swapped)) }
        }
        for index in digits.indices.dropLast(2) where digits[index] != digits[index + 2] {
            var jumped = digits
            jumped.swapAt(index, index + 2)
            #expect(throws: CardNumber.Problem.wrongCheckDigits) { try CardNumber(parsing: String(jumped)) }
        }
    }

    @Test func aWrongLengthOrAStrayCharacterIsSaidSo() {
        #expect(throws: CardNumber.Problem.wrongLength(9)) { try CardNumber(parsing: "274103851") }
        #expect(throws: CardNumber.Problem.wrongLength(0)) { try CardNumber(parsing: "") }
        #expect(throws: CardNumber.Problem.invalidCharacter("O")) { try CardNumber(parsing: "27410 385O4") }
        #expect(throws: CardNumber.Problem.invalidCharacter("٣")) { try CardNumber(parsing: "274103851٣") }
    }

    @Test func aCardNumberIsStoredAsItsDigitsAndReadBackChecked() throws {
        let card = CardNumber(serial: 27_410_385)
        let data = try JSONEncoder().encode(CardIssued(user: ada, card: card))
        #expect(String(decoding: data, as: UTF8.self).contains("\"2741038514\""))
        #expect(try JSONDecoder().decode(CardIssued.self, from: data) == CardIssued(user: ada, card: card))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CardNumber.self, from: Data("\"2741038515\"".utf8)) }
    }

    // The claim: one member per number.

    func claim(_ command: CardClaimCommand, _ events: CardClaimEvent...) -> Result<[CardClaimEvent], CardClaimRejection> {
        Result { () throws(CardClaimRejection) in try CardClaimAggregate.decide(command, CardClaimAggregate.fold(events)) }
    }

    @Test func aFreeNumberIsClaimedOnceAndAnotherMemberIsRefused() {
        let card = CardNumber(serial: 42)
        let claimed = CardClaimEvent.claimed(CardClaimed(card: card, user: ada))
        #expect(claim(.claim(card, by: ada)) == .success([claimed]))
        #expect(claim(.claim(card, by: ada), claimed) == .success([]))
        #expect(claim(.claim(card, by: bob), claimed) == .failure(.taken))
        #expect(claimed.personalData == PersonalData(subject: ada, fields: ["card"]))
    }

    // The account: one card, issued once.

    @Test func anAccountIsIssuedOneCardAndARepeatDecidesNothing() throws {
        let registered = UserEvent.registered(
            UserRegistered(
                user: ada, email: try EmailAddress(parsing: "ada@example.org"), displayName: "Ada", country: "GB", passwordHash: "h",
                role: .member))
        let card = CardNumber(serial: 7)
        let issued = UserEvent.cardIssued(CardIssued(user: ada, card: card))
        #expect(try UserAggregate.decide(.issueCard(card), UserAggregate.fold([registered])) == [issued])
        let state = UserAggregate.fold([registered, issued])
        guard case .registered(let account) = state else { return #expect(Bool(false), "not registered") }
        #expect(account.card == card)
        #expect(try UserAggregate.decide(.issueCard(CardNumber(serial: 8)), state) == [])
        #expect(throws: UserRejection.notRegistered) { try UserAggregate.decide(.issueCard(card), .absent) }
        #expect(issued.personalData == PersonalData(subject: ada, fields: ["card"]))
    }
}
