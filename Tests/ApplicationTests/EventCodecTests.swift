import Application
import Domain
import Foundation
import LogChain
import SQLiteStore
import Testing

/// The codec every store uses, derived from the stored names the aggregates declare.
@Suite("Event codec")
struct EventCodecTests {
    /// A name only read (a `…v1` upcast to a `…v2`) has no sample: the golden log holds it.
    @Test func everyStoredTypeHasASample() throws {
        let sampled = try EventSamples.all.map { try EventCodec.encode($0).type }
        let upcast = Set(try Self.golden().filter { try EventCodec.encode($0.event).type != $0.stored.type }.map(\.stored.type))
        #expect(sampled.count == Set(sampled).count, "one sample per stored name")
        #expect(Set(sampled) == Set(EventCodec.allTypes).subtracting(upcast), "add a sample to EventSamples.all for each new event case")
    }

    @Test(arguments: EventSamples.all)
    func aSampleRoundTrips(_ event: DomainEvent) throws {
        let (type, payload) = try EventCodec.encode(event)
        #expect(try EventCodec.decode(type: type, payload: payload) == event)
        let (againType, againPayload) = try EventCodec.encode(try EventCodec.decode(type: type, payload: payload))
        #expect(againType == type && againPayload == payload)
    }

    /// Within one aggregate the compiler refuses a repeated raw value; across aggregates this test does.
    @Test func noTwoCasesShareAStoredName() {
        let repeated = Dictionary(grouping: EventCodec.allTypes, by: { $0 }).filter { $0.value.count > 1 }.keys
        #expect(repeated.isEmpty, "stored names declared twice: \(repeated.sorted())")
    }

    /// Every payload of the golden files decodes, and encodes back to the very bytes stored unless it
    /// is upcast or sealed (a sealed payload's key is not in the golden file: it reads as erased).
    @Test func theGoldenLogEncodesToItsOwnBytes() throws {
        for (stored, event) in try Self.golden() where !stored.payload.contains(#""$sealed""#) {
            let (type, payload) = try EventCodec.encode(event)
            #expect(type != stored.type || payload == stored.payload, "position \(stored.position) (\(stored.type))")
        }
    }

    /// Every event of every golden file, as stored and as decoded.
    static func golden() throws -> [(stored: ExportedEvent, event: DomainEvent)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: GoldenLogTests.folder.path).filter { $0.hasSuffix(".jsonl") }
        return try files.flatMap(GoldenLogTests.lines).map { line in
            let stored = try JSONDecoder().decode(ExportedEvent.self, from: Data(line.utf8))
            return (stored, try EventCodec.decode(type: stored.type, payload: stored.payload))
        }
    }

    @Test func anUnknownTypeIsNamed() {
        #expect(throws: EventCodec.UnknownEventType.self) { try EventCodec.decode(type: "book.added.v0", payload: "{}") }
    }
}

/// One sample of every event case. `everyStoredTypeHasASample` fails until a new case has one here.
enum EventSamples {
    static let book = BookID(UUID(uuidString: "0192f000-0000-7000-8000-000000000001")!)
    static let user = UserID(UUID(uuidString: "0192f000-0000-7000-8000-000000000002")!)
    static let loan = LoanID(UUID(uuidString: "0192f000-0000-7000-8000-000000000003")!)
    static let session = SessionID(UUID(uuidString: "0192f000-0000-7000-8000-000000000004")!)
    static let hold = HoldID(UUID(uuidString: "0192f000-0000-7000-8000-000000000005")!)
    static let appKey = AppKeyID(UUID(uuidString: "0192f000-0000-7000-8000-000000000006")!)
    static let email = try! EmailAddress(parsing: "Ada@Example.org")
    static let at = Date(timeIntervalSince1970: 1_790_000_000.595)
    static let due = Date(timeIntervalSince1970: 1_791_209_600)
    static let details = BookDetails(
        title: "Dune/Messiah", authors: ["Frank Herbert"], isbn: try! ISBN(parsing: "9780441172719"), publisher: "Chilton",
        categories: ["SF"], coverURL: "https://covers.example/b/1.jpg", description: "Spice \"and\" sand")
    static let snapshot = BookmarkSnapshot(
        title: "Dune", authors: ["Frank Herbert"], firstPublishYear: 1965, coverID: 42, ratingAverage: 4.25)

    static let all: [DomainEvent] = [
        .book(.added(BookAdded(book: book, details: details, copies: 2))),
        .book(.edited(BookEdited(book: book, details: BookDetails(title: "Dune", authors: [])))),
        .book(.copiesAdded(CopiesChanged(book: book, count: 1, total: 3))),
        .book(.copiesRemoved(CopiesChanged(book: book, count: 2, total: 1))),
        .book(.withdrawn(BookWithdrawn(book: book))),
        .book(.copyLent(CopyMovement(book: book, loan: loan, onLoan: 1))),
        .book(.copyReturned(CopyMovement(book: book, loan: loan, onLoan: 0))),
        .user(
            .registered(
                UserRegistered(
                    user: user, email: email, displayName: "Ada", country: "GB", passwordHash: "$2b$12$hash", role: .member))),
        .user(.roleChanged(RoleChanged(user: user, role: .librarian))),
        .user(.sessionOpened(SessionOpened(user: user, session: session, tokenDigest: "ab12", expiresAt: due))),
        .user(.sessionClosed(SessionClosed(user: user, session: session))),
        .user(.profileChanged(ProfileChanged(user: user, displayName: "Ada Lovelace", country: "FR"))),
        .user(.emailChanged(EmailChanged(user: user, email: try! EmailAddress(parsing: "ada@lovelace.org"), previous: email))),
        .emailClaim(.released(EmailReleased(email: email, user: user))),
        .user(.passwordChanged(PasswordChanged(user: user, passwordHash: "$2b$12$new"))),
        .user(.passwordReset(PasswordReset(user: user, passwordHash: "$2b$12$reset"))),
        .user(.resetCodeIssued(ResetCodeIssued(user: user, codeDigest: String(repeating: "ab", count: 32), expiresAt: due))),
        .emailClaim(.claimed(EmailClaimed(email: email, user: user))),
        .emailClaim(.loginFailed(LoginAttempted(email: email, user: user, at: at))),
        .emailClaim(.loginSucceeded(LoginAttempted(email: email, user: user, at: at))),
        .user(.closed(UserClosed(user: user))),
        .loan(.opened(LoanOpened(loan: loan, book: book, bookTitle: "Dune", borrower: user, borrowerName: "Ada", lentAt: at, dueAt: due))),
        .loan(.renewed(LoanRenewed(loan: loan, dueAt: due, renewals: 1))),
        .loan(.returned(LoanReturned(loan: loan, book: book, borrower: nil, at: at))),
        .loan(.noticeIssued(NoticeIssued(loan: loan, member: user, bookTitle: "Dune", kind: .overdue, dueAt: due, at: at))),
        .patron(.loanStarted(PatronLoan(member: user, loan: loan, book: book, dueAt: due))),
        .patron(.loanRenewed(PatronLoan(member: user, loan: loan, book: book, dueAt: due))),
        .patron(.loanEnded(PatronLoanEnded(member: user, loan: loan))),
        .patron(.holdPlaced(PatronHold(member: user, hold: hold, book: book))),
        .patron(.holdEnded(PatronHoldEnded(member: user, hold: hold))),
        .inbox(.noticesRead(NoticesRead(member: user, notices: ["\(loan):overdue"]))),
        .bookmark(.added(BookmarkAdded(member: user, key: "OL45883W", book: nil, snapshot: snapshot))),
        .bookmark(.removed(BookmarkRemoved(member: user, key: "book:\(book)"))),
        .isbnClaim(.claimed(ISBNHolder(isbn: details.isbn!, book: book))),
        .isbnClaim(.released(ISBNHolder(isbn: details.isbn!, book: book))),
        .hold(.placed(HoldPlaced(hold: hold, book: book, bookTitle: "Dune", member: user, memberName: "Ada", at: at))),
        .hold(.setAside(HoldSetAside(hold: hold, book: book, bookTitle: "Dune", member: user, at: at, until: due))),
        .hold(.fulfilled(HoldFulfilled(hold: hold, book: book, member: user, loan: loan, at: at))),
        .hold(.cancelled(HoldCancelled(hold: hold, book: book, bookTitle: "Dune", member: user, at: at, reason: .bookWithdrawn))),
        .hold(.expired(HoldExpired(hold: hold, book: book, member: user, at: at))),
        .user(.cardIssued(CardIssued(user: user, card: CardNumber(serial: 27_410_385)))),
        .user(.usernameChosen(UsernameChosen(user: user, username: try! Username(parsing: "ada.l")))),
        .user(.usernameDropped(UsernameDropped(user: user))),
        .user(.languageChosen(LanguageChosen(user: user, language: .french))),
        .usernameClaim(.claimed(UsernameClaimed(username: try! Username(parsing: "ada.l"), user: user))),
        .usernameClaim(.released(UsernameReleased(username: try! Username(parsing: "ada.l"), user: user))),
        .cardClaim(.claimed(CardClaimed(card: CardNumber(serial: 27_410_385), user: user))),
        .walkIn(.loanStarted(WalkInLoan(borrowerName: "Mrs Hudson", loan: loan, book: book))),
        .walkIn(.loanEnded(WalkInLoanEnded(loan: loan))),
        .appKey(.issued(AppKeyIssued(key: appKey, user: user, app: AppKeyIssued.prolific, digest: String(repeating: "ab", count: 32)))),
        .appKey(.revoked(AppKeyRevoked(key: appKey))),
    ]
}
