import Domain

/// Everything the library lets a caller do, by name. What each needs of its caller is decided
/// once, in `Authorization.access`; every use case, and every adapter that must refuse before
/// reading its input, asks that table.
public enum LibraryOperation: String, CaseIterable, Sendable {
    case listBooks, showBook, addBook, editBook, withdrawBooks, clearCatalogue, importBook
    case signUp, registerLibrarian, logIn, logOut, showOwnAccount, listUsers, changeRole, findMember, listCountries
    case editOwnAccount
    case closeOwnAccount, closeAccount
    case changeOwnPassword, issueResetCode, resetPassword
    case borrowBooks, listOwnLoans, returnLoan, renewLoan, lendWalkIn, listLoans, scanNotices, readOwnNotices
    case lendAtDesk, showMember, issueCards
    case placeHold, cancelHold, listOwnHolds, renewAllLoans, listHolds
    case searchOpenLibrary, keepBookmarks
    case verifyLog, anchorLog, exportLog, showHistory, timeTravel, replayLog, checkHealth
    case backUpLibrary
    case issueAppKey, revokeAppKey
}

/// Who may run an operation.
public enum Access: Equatable, Sendable {
    /// Anyone, logged in or not.
    case anyone
    /// A logged-in member or librarian, on their own loans, bookmarks and notices (librarians on
    /// any member's, where the use case offers it).
    case signedIn
    /// A logged-in member on their own loan or hold, or the desk: librarians, the operator (who
    /// lends at the CLI without logging in, takes the copy back and cancels a hold the same way)
    /// and scheduled work.
    case borrowerOrDesk
    /// Librarians, the operator and the server's own scheduled work.
    case librarian
}

/// The one table of who may do what.
public enum Authorization {
    /// What `operation` needs of its caller.
    public static func access(_ operation: LibraryOperation) -> Access {
        switch operation {
        case .listBooks, .showBook, .signUp, .logIn, .listCountries, .searchOpenLibrary, .checkHealth: .anyone
        case .lendAtDesk, .showMember, .issueCards: .librarian
        case .closeOwnAccount: .signedIn
        case .closeAccount: .librarian
        case .resetPassword: .anyone
        case .changeOwnPassword: .signedIn
        case .issueResetCode: .librarian
        case .logOut, .showOwnAccount, .editOwnAccount,
            .borrowBooks, .listOwnLoans, .readOwnNotices, .keepBookmarks,
            .placeHold, .listOwnHolds, .renewAllLoans:
            .signedIn
        case .returnLoan, .renewLoan, .cancelHold: .borrowerOrDesk
        case .addBook, .editBook, .withdrawBooks, .clearCatalogue, .importBook, .registerLibrarian, .listUsers, .changeRole, .findMember,
            .lendWalkIn, .listLoans, .scanNotices, .listHolds, .verifyLog, .anchorLog, .exportLog, .showHistory, .timeTravel, .replayLog,
            .backUpLibrary, .issueAppKey, .revokeAppKey:
            .librarian
        }
    }

    /// Lets `principal` run `operation`, or throws `Unauthenticated` (401: log in) or `Forbidden` (403).
    public static func require(_ operation: LibraryOperation, by principal: Principal) throws {
        switch (access(operation), principal) {
        case (.anyone, _), (.signedIn, .user), (.borrowerOrDesk, .user), (.borrowerOrDesk, .cliOperator), (.borrowerOrDesk, .system),
            (.librarian, .cliOperator), (.librarian, .system), (.librarian, .user(_, .librarian, _)):
            return
        case (_, .anonymous), (.signedIn, .cliOperator), (.signedIn, .system): throw Unauthenticated()
        case (.librarian, .user): throw Forbidden(.librarianOnly)
        }
    }

    /// The logged-in user running `operation`, or the refusal `require` gives.
    public static func user(_ operation: LibraryOperation, by principal: Principal) throws -> (UserID, SessionID) {
        try require(operation, by: principal)
        guard case .user(let id, _, let session) = principal else { throw Unauthenticated() }
        return (id, session)
    }

    /// Secrets (password hashes, reset-code and session-token digests) leave the library only in
    /// the operator's backups (`audit export --include-secrets` without a session): never to a
    /// session, a librarian's included. Throws `Forbidden(.operatorOnly)`.
    public static func requireSecrets(by principal: Principal) throws {
        guard principal == .cliOperator else { throw Forbidden(.operatorOnly) }
    }

    /// Whether `principal` is the member `owner`, acting for themselves (not at the desk).
    public static func isOwner(_ owner: UserID, _ principal: Principal) -> Bool {
        if case .user(let id, _, _) = principal { id == owner } else { false }
    }

    /// Whether `principal` may see or act on what belongs to `owner` (nil: nobody's, such as a
    /// walk-in loan): its owner, librarians and the operator. To anyone else it does not exist.
    public static func mayActOn(ownedBy owner: UserID?, by principal: Principal) -> Bool {
        switch principal {
        case .cliOperator, .system, .user(_, .librarian, _): true
        case .user(let id, .member, _): id == owner
        case .anonymous: false
        }
    }
}
