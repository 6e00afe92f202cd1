import Application
import Domain
import Foundation
import Testing

/// The one table of who may do what, walked whole: each operation for an anonymous caller, a
/// member, a librarian, the operator and the server's scheduled work.
@Suite("Authorization table")
struct AuthorizationTests {
    enum Outcome: Equatable { case allowed, unauthenticated, forbidden }

    static let member = Principal.user(UserID(UUID()), .member, SessionID(UUID()))
    static let otherMember = Principal.user(UserID(UUID()), .member, SessionID(UUID()))
    static let librarian = Principal.user(UserID(UUID()), .librarian, SessionID(UUID()))

    /// Written out by hand, not derived from the code under test.
    static let anyone: Set<LibraryOperation> = [
        .listBooks, .showBook, .signUp, .logIn, .listCountries, .searchOpenLibrary, .checkHealth, .resetPassword,
    ]
    static let signedIn: Set<LibraryOperation> = [
        .logOut, .showOwnAccount, .editOwnAccount, .borrowBooks, .listOwnLoans, .readOwnNotices, .keepBookmarks,
        .placeHold, .listOwnHolds, .renewAllLoans, .closeOwnAccount, .changeOwnPassword,
    ]
    /// A loan is taken back or renewed, a hold cancelled, by its member or at the desk, the
    /// operator's CLI included (found by an outside walk: the operator could list holds, not cancel one).
    static let borrowerOrDesk: Set<LibraryOperation> = [.returnLoan, .renewLoan, .cancelHold]

    func outcome(_ operation: LibraryOperation, _ principal: Principal) -> Outcome {
        do {
            try Authorization.require(operation, by: principal)
            return .allowed
        } catch is Unauthenticated {
            return .unauthenticated
        } catch {
            return .forbidden
        }
    }

    @Test(arguments: LibraryOperation.allCases)
    func everyOperation(operation: LibraryOperation) {
        let expected: [Outcome]  // anonymous, member, librarian, operator, system
        if Self.anyone.contains(operation) {
            expected = [.allowed, .allowed, .allowed, .allowed, .allowed]
        } else if Self.signedIn.contains(operation) {
            expected = [.unauthenticated, .allowed, .allowed, .unauthenticated, .unauthenticated]
        } else if Self.borrowerOrDesk.contains(operation) {
            expected = [.unauthenticated, .allowed, .allowed, .allowed, .allowed]
        } else {
            expected = [.unauthenticated, .forbidden, .allowed, .allowed, .allowed]
        }
        #expect([.anonymous, Self.member, Self.librarian, .cliOperator, .system].map { outcome(operation, $0) } == expected)
    }

    @Test func aMembersOwnThingsAreTheirsAndLibrariansButNobodyElses() {
        guard case .user(let owner, _, _) = Self.member else { return }
        #expect(Authorization.mayActOn(ownedBy: owner, by: Self.member))
        #expect(!Authorization.mayActOn(ownedBy: owner, by: Self.otherMember))
        #expect(!Authorization.mayActOn(ownedBy: owner, by: .anonymous))
        #expect(Authorization.mayActOn(ownedBy: owner, by: Self.librarian))
        #expect(Authorization.mayActOn(ownedBy: owner, by: .cliOperator))
        #expect(!Authorization.mayActOn(ownedBy: nil, by: Self.member), "a walk-in loan is nobody's to see but the desk's")
    }
}
