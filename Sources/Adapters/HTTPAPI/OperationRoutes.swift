import Application
import Hummingbird

/// Which operation each route of the contract runs, so `AdmissionMiddleware` checks the caller
/// against the one authorization table before anything it sent is read. A test keeps this table
/// and the contract in step.
enum OperationRoutes {
    static let table: [String: LibraryOperation] = [
        "GET /api/v1/health": .checkHealth,
        "POST /api/v1/users": .signUp,
        "GET /api/v1/users": .listUsers,
        "POST /api/v1/users/{idOrEmail}/role": .changeRole,
        "POST /api/v1/sessions": .logIn,
        "DELETE /api/v1/sessions": .logOut,
        "DELETE /api/v1/sessions/current": .logOut,
        "GET /api/v1/me": .showOwnAccount,
        "PATCH /api/v1/me": .editOwnAccount,
        "DELETE /api/v1/me": .closeOwnAccount,
        "DELETE /api/v1/users/{idOrEmail}": .closeAccount,
        "POST /api/v1/me/password": .changeOwnPassword,
        "POST /api/v1/users/{idOrEmail}/reset-code": .issueResetCode,
        "POST /api/v1/password-resets": .resetPassword,
        "GET /api/v1/countries": .listCountries,
        "GET /api/v1/countries/default": .listCountries,
        "POST /api/v1/loans": .borrowBooks,
        "GET /api/v1/loans": .listLoans,
        "POST /api/v1/loans/{id}/return": .returnLoan,
        "POST /api/v1/loans/{id}/renew": .renewLoan,
        "POST /api/v1/books/{id}/checkout": .lendWalkIn,
        "POST /api/v1/desk/loans": .lendAtDesk,
        "GET /api/v1/users/{idOrEmail}": .showMember,
        "GET /api/v1/me/card": .showOwnAccount,
        "GET /api/v1/me/loans": .listOwnLoans,
        "POST /api/v1/me/loans/renew-all": .renewAllLoans,
        "POST /api/v1/holds": .placeHold,
        "GET /api/v1/holds": .listHolds,
        "DELETE /api/v1/holds/{id}": .cancelHold,
        "GET /api/v1/me/holds": .listOwnHolds,
        "GET /api/v1/books/{id}/holds": .listHolds,
        "GET /api/v1/me/notifications": .readOwnNotices,
        "POST /api/v1/me/notifications/{id}/read": .readOwnNotices,
        "POST /api/v1/me/notifications/read-all": .readOwnNotices,
        "GET /api/v1/search": .searchOpenLibrary,
        "GET /api/v1/me/bookmarks": .keepBookmarks,
        "PUT /api/v1/me/bookmarks/{key}": .keepBookmarks,
        "DELETE /api/v1/me/bookmarks/{key}": .keepBookmarks,
        "PUT /api/v1/me/bookmarks/books/{id}": .keepBookmarks,
        "GET /api/v1/audit/verify": .verifyLog,
        "GET /api/v1/audit/history": .showHistory,
        "GET /api/v1/audit/as-of": .timeTravel,
        "GET /api/v1/books": .listBooks,
        "POST /api/v1/books": .addBook,
        "DELETE /api/v1/books": .clearCatalogue,
        "POST /api/v1/books/import": .importBook,
        "GET /api/v1/books/{id}": .showBook,
        "PATCH /api/v1/books/{id}": .editBook,
        "DELETE /api/v1/books/{id}": .withdrawBooks,
    ]

    /// The operation of the route a request matched, or nil (no route: the router answers 404/405).
    /// A `HEAD` runs its `GET`'s operation.
    static func operation(_ request: Request, endpoint: String?) -> LibraryOperation? {
        route(request, endpoint: endpoint).flatMap { table[$0] }
    }

    /// The key of the route a request matched (`GET /api/v1/me`), or nil; a `HEAD` is its `GET`.
    static func route(_ request: Request, endpoint: String?) -> String? {
        endpoint.map { "\(request.method == .head ? "GET" : request.method.rawValue) \($0)" }
    }
}
