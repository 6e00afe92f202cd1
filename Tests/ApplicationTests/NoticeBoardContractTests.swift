import Application
import Domain
import Foundation
import Testing

/// The notices read model's contract (`NoticeBoard`), on every store adapter: the notices loans and
/// holds issue, each stored once, listed newest first with the unread count of all of them.
@Suite("Notices read model (contract)")
struct NoticeBoardContractTests {
    typealias L = LoanRegisterContractTests
    static let hold1 = HoldID(L.uuid(0xc1))
    static let hold2 = HoldID(L.uuid(0xc2))
    static let hold3 = HoldID(L.uuid(0xc3))

    static func issued(_ n: Int, _ kind: NoticeKind, due: Date, at: Date, to member: UserID = L.ada) -> DomainEvent {
        .loan(.noticeIssued(NoticeIssued(loan: L.loanID(n), member: member, bookTitle: "Dune", kind: kind, dueAt: due, at: at)))
    }

    static func setAside(_ hold: HoldID, until: Date) -> DomainEvent {
        .hold(.setAside(HoldSetAside(hold: hold, book: L.emma, bookTitle: "Emma", member: L.ada, at: L.start, until: until)))
    }

    static func cancelled(_ hold: HoldID, _ reason: HoldCancelReason) -> DomainEvent {
        .hold(.cancelled(HoldCancelled(hold: hold, book: L.emma, bookTitle: "Emma", member: L.ada, at: L.start + 1, reason: reason)))
    }

    @Test(
        "loan and hold notices, newest first, paged with the unread count of all; read once, by their member", arguments: LibraryFactory.all
    )
    func notices(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let (due, renewedDue, until) = (L.start + L.day, L.start + 15 * L.day, L.start + 3 * L.day)
        try await lib.append(
            .loan(L.loanID(1)), L.opened(1, due: due), Self.issued(1, .dueSoon, due: due, at: L.start),
            .loan(.renewed(LoanRenewed(loan: L.loanID(1), dueAt: renewedDue, renewals: 1))),
            Self.issued(1, .dueSoon, due: renewedDue, at: L.start + 14 * L.day))
        try await lib.append(.loan(L.loanID(2)), L.opened(2, to: L.bob, name: "Bob", due: due))
        try await lib.append(.loan(L.loanID(2)), Self.issued(2, .overdue, due: due, at: L.start + 2 * L.day, to: L.bob))
        try await lib.append(.loan(L.loanID(1)), Self.issued(1, .overdue, due: renewedDue, at: L.start + 16 * L.day))
        // A copy set aside twice tells its member once; only a withdrawn book's cancelled hold tells.
        try await lib.append(.holds(L.emma), Self.setAside(Self.hold1, until: until), Self.setAside(Self.hold1, until: until + 1))
        try await lib.append(.holds(L.emma), Self.cancelled(Self.hold2, .bookWithdrawn), Self.cancelled(Self.hold3, .requested))

        let first = "\(L.loanID(1)):due-soon"
        let page = try await lib.notices.notices(of: L.ada, page: try PageRequest(limit: 100))
        #expect(
            page.items == [
                NoticeSummary(
                    id: "\(Self.hold2):hold-cancelled", loan: nil, hold: Self.hold2, bookTitle: "Emma", kind: .holdCancelled,
                    dueAt: L.start + 1, issuedAt: L.start + 1, read: false),
                NoticeSummary(
                    id: "\(Self.hold1):ready-for-pickup", loan: nil, hold: Self.hold1, bookTitle: "Emma", kind: .readyForPickup,
                    dueAt: until, issuedAt: L.start, read: false),
                NoticeSummary(
                    id: "\(L.loanID(1)):overdue", loan: L.loanID(1), bookTitle: "Dune", kind: .overdue, dueAt: renewedDue,
                    issuedAt: L.start + 16 * L.day, read: false),
                NoticeSummary(
                    id: "\(first)@\(Timestamp.format(renewedDue))", loan: L.loanID(1), bookTitle: "Dune", kind: .dueSoon,
                    dueAt: renewedDue, issuedAt: L.start + 14 * L.day, read: false),
                NoticeSummary(
                    id: first, loan: L.loanID(1), bookTitle: "Dune", kind: .dueSoon, dueAt: due, issuedAt: L.start, read: false),
            ])
        #expect(page.unread == 5 && page.page.total == 5)
        let walked = try await walkPages(limit: 2) { try await lib.notices.notices(of: L.ada, page: $0).page }
        #expect(walked.items == page.items)
        #expect(try await lib.notices.noticeIDs(of: L.ada) == page.items.map(\.id).reversed())

        // Naming another member's notice marks nothing of theirs; a notice is read once.
        let bobs = try #require(try await lib.notices.noticeIDs(of: L.bob).first)
        try await lib.append(.inbox(L.ada), .inbox(.noticesRead(NoticesRead(member: L.ada, notices: [first, bobs]))))
        try await lib.append(.inbox(L.ada), .inbox(.noticesRead(NoticesRead(member: L.ada, notices: [first]))))
        let second = try await lib.notices.notices(of: L.ada, page: try PageRequest(limit: 2, offset: 2))
        #expect(second.unread == 4 && second.page.total == 5 && second.items.map(\.read) == [false, false])
        #expect(try await lib.notices.notices(of: L.ada, page: try PageRequest(limit: 1, offset: 4)).items.map(\.read) == [true])
        let bobsPage = try await lib.notices.notices(of: L.bob, page: .first)
        #expect(bobsPage.unread == 1 && bobsPage.items.map(\.id) == [bobs])
        #expect(
            try await lib.notices.notices(of: L.uuidMember(0xa9), page: .first)
                == NoticePage(page: Page(items: [], total: 0, of: .first), unread: 0))

        try await lib.rebuild()
        let rebuilt = try await lib.notices.notices(of: L.ada, page: try PageRequest(limit: 100))
        #expect(rebuilt.items.map(\.id) == page.items.map(\.id) && rebuilt.unread == 4)
        await lib.postgres?.close()
    }
}

extension LoanRegisterContractTests {
    static func uuidMember(_ n: Int) -> UserID { UserID(uuid(n)) }
}
