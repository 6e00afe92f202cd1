import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HTTPAPI

/// How to make the real application answer each error the contract declares: a rule per status
/// where one request shape fits every operation (a bad token, a member on a librarian's operation,
/// a body that is not an object, a parameter not of its kind), and a request of its own for each
/// answer that depends on the library's state.
enum ErrorProvocations {
    typealias Provocation = @Sendable (ErrorWalk) async throws -> Answer

    /// Declared responses no request can provoke through the real application, and why. The walk
    /// fails when one of these is no longer declared, so the list stays true.
    static let unprovokable: [String: String] = [
        "health 503":
            "the database would have to stop answering while the server runs; StorageUnavailable's problem and Retry-After are checked in HTTPTransportTests",
        "returnLoan 403":
            "returning needs only a login, and a member returning another's loan is told it does not exist (404, Authorization.mayActOn): nobody is forbidden",
        "renewLoan 403":
            "renewing needs only a login, and a member renewing another's loan is told it does not exist (404, Authorization.mayActOn): nobody is forbidden",
        "myCard 404":
            "every account gets its card at signup, or at its first login since cards, so no session made over HTTP lacks one; a session from before cards does (NoCardYet, DeskUseCaseTests)",
    ]

    /// The requests for one declared response: the specific ones when there are, else the rule for its status.
    static func of(_ operation: ContractShapes.Operation, status: Int) -> [Provocation] {
        let specific = specific["\(operation.id) \(status)"] ?? []
        return specific.isEmpty ? generic(operation, status: status).map { [$0] } ?? [] : specific
    }

    private static func generic(_ operation: ContractShapes.Operation, status: Int) -> Provocation? {
        let method = HTTPRequest.Method(rawValue: operation.method)!
        let json = operation.body == nil ? nil : "{}"
        switch status {
        case 401: return { try await $0.send(method, $0.path(operation), json: json, as: .stranger) }
        case 403: return { try await $0.send(method, $0.path(operation), json: json, as: .member) }
        case 404 where operation.path.contains("{id}"):
            return { try await $0.send(method, $0.path(operation, id: ErrorWalk.ghost), json: validBodies[operation.id] ?? json) }
        case 413:
            return { try await $0.send(method, $0.path(operation), body: ByteBuffer(repeating: UInt8(ascii: " "), count: (1 << 20) + 1)) }
        case 429 where operation.method != "GET" || ["searchBooks", "listBooks"].contains(operation.id):
            // The address's bucket for this kind emptied by harmless requests (a body that is not an
            // object, a search), then the operation: refused before anything runs.
            return { walk in
                for _ in 0..<ErrorWalk.addressRate {
                    if operation.method == "GET" {
                        try await walk.send(.get, "/api/v1/books?q=emptied", from: ErrorWalk.emptiedAddress)
                    } else {
                        try await walk.send(.patch, "/api/v1/me", json: "[]", from: ErrorWalk.emptiedAddress)
                    }
                }
                let query = operation.method == "GET" ? "?q=emptied" : ""
                return try await walk.send(method, walk.path(operation) + query, json: json, from: ErrorWalk.emptiedAddress)
            }
        case 400 where operation.body != nil: return { try await $0.send(method, $0.path(operation), json: "[]", as: .member) }
        case 400:
            // A parameter of a kind other than text, given a value not of that kind.
            guard let parameter = operation.parameters.first(where: { $0.location == "query" && $0.shape != .text }) else { return nil }
            return { try await $0.send(method, $0.path(operation) + "?\(parameter.name)=not%20of%20its%20kind", as: .librarian) }
        default: return nil
        }
    }

    /// Bodies an operation accepts, for answers that are about something else (an id not found).
    static let validBodies: [String: String] = [
        "changeRole": #"{"role":"librarian"}"#,
        "checkoutWalkIn": #"{"borrowerName":"Mrs Hudson"}"#,
        "updateBook": #"{"title":"Another title"}"#,
    ]

    private static let specific: [String: [Provocation]] = [
        // A version the book never had.
        "updateBook 412": [{ try await $0.send(.patch, "/api/v1/books/\($0.book)", json: #"{"title":"Stale"}"#, ifMatch: "\"0.0\"") }],
        "deleteBook 400": [{ try await $0.send(.delete, "/api/v1/books/\($0.book)", ifMatch: "7.2") }],
        "deleteBook 412": [{ try await $0.send(.delete, "/api/v1/books/\($0.book)", ifMatch: "\"0.0\"") }],
        "placeHold 404": [{ try await $0.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(ErrorWalk.ghost)"}"#, as: .member) }],
        "placeHold 409": [
            // Copies of the book are on the shelf: borrow it. And no hold on a book the member has on loan.
            { try await $0.send(.post, "/api/v1/holds", json: #"{"bookId":"\#($0.book)"}"#, as: .member) },
            { try await $0.send(.post, "/api/v1/holds", json: #"{"bookId":"\#($0.lentBook)"}"#, as: .member) },
        ],
        "signUp 400": [
            { try await $0.send(.post, "/api/v1/users", json: "[]", as: .anonymous) },
            { try await $0.send(.post, "/api/v1/users", json: #"{"email":"x","password":"short","country":"ZZ"}"#, as: .anonymous) },
        ],
        "signUp 422": [
            { walk in
                try await walk.send(.post, "/api/v1/users", json: signup("keyed@example.org"), as: .anonymous, key: "walk-signup")
                return try await walk.send(.post, "/api/v1/users", json: signup("other@example.org"), as: .anonymous, key: "walk-signup")
            }
        ],
        "signUp 409": [{ try await $0.send(.post, "/api/v1/users", json: signup("librarian@example.org"), as: .anonymous) }],
        "signUp 429": [
            { walk in
                for n in 0..<5 {
                    try await walk.send(.post, "/api/v1/users", json: signup("eager\(n)@example.org"), as: .anonymous, from: "192.0.2.1")
                }
                return try await walk.send(.post, "/api/v1/users", json: signup("eager@example.org"), as: .anonymous, from: "192.0.2.1")
            }
        ],
        "logIn 401": [{ try await $0.send(.post, "/api/v1/sessions", json: login("ada@example.org", "Wrong-Pass1"), as: .anonymous) }],
        "logIn 429": [
            { walk in
                for _ in 0..<5 {
                    try await walk.send(
                        .post, "/api/v1/sessions", json: login("ada@example.org", "Wrong-Pass1"), as: .anonymous, from: "192.0.2.2")
                }
                return try await walk.send(
                    .post, "/api/v1/sessions", json: login("ada@example.org", "Wrong-Pass1"), as: .anonymous, from: "192.0.2.2")
            }
        ],
        "changePassword 403": [{ try await $0.send(.post, "/api/v1/me/password", json: change("Wrong-Pass1"), as: .member) }],
        "changePassword 429": [
            { walk in
                for _ in 0..<5 {
                    try await walk.send(.post, "/api/v1/me/password", json: change("Wrong-Pass1"), as: .member, from: "192.0.2.3")
                }
                return try await walk.send(.post, "/api/v1/me/password", json: change("Wrong-Pass1"), as: .member, from: "192.0.2.3")
            }
        ],
        "issueResetCode 401": [{ try await $0.send(.post, "/api/v1/users/ada@example.org/reset-code", as: .stranger) }],
        "issueResetCode 403": [{ try await $0.send(.post, "/api/v1/users/ada@example.org/reset-code", as: .member) }],
        "issueResetCode 404": [{ try await $0.send(.post, "/api/v1/users/nobody@example.org/reset-code") }],
        "resetPassword 400": [
            { try await $0.send(.post, "/api/v1/password-resets", json: "[]", as: .anonymous) },
            { try await $0.send(.post, "/api/v1/password-resets", json: reset("ada@example.org", "ABC", "weak"), as: .anonymous) },
        ],
        "resetPassword 403": [
            { try await $0.send(.post, "/api/v1/password-resets", json: reset("ada@example.org", "0000-0000-0000"), as: .anonymous) },
            { try await $0.send(.post, "/api/v1/password-resets", json: reset("nobody@example.org", "0000-0000-0000"), as: .anonymous) },
        ],
        "resetPassword 429": [
            { walk in
                let wrong = reset("ada@example.org", "0000-0000-0000")
                for _ in 0..<5 { try await walk.send(.post, "/api/v1/password-resets", json: wrong, as: .anonymous, from: "192.0.2.4") }
                return try await walk.send(.post, "/api/v1/password-resets", json: wrong, as: .anonymous, from: "192.0.2.4")
            }
        ],
        "changeRole 400": [{ try await $0.send(.post, "/api/v1/users/\($0.memberID)/role", json: #"{"role":"admin"}"#) }],
        "changeRole 404": [
            { try await $0.send(.post, "/api/v1/users/nobody@example.org/role", json: #"{"role":"librarian"}"#) },
            { try await $0.send(.post, "/api/v1/users/\(ErrorWalk.ghost)/role", json: #"{"role":"librarian"}"#) },
        ],
        // The only librarian demoting themselves.
        "changeRole 409": [{ try await $0.send(.post, "/api/v1/users/librarian@example.org/role", json: #"{"role":"member"}"#) }],
        "editMe 400": [
            { try await $0.send(.patch, "/api/v1/me", json: "[]", as: .member) },
            { try await $0.send(.patch, "/api/v1/me", json: #"{"email":"nope","country":"ZZ","displayName":" "}"#, as: .member) },
        ],
        "editMe 409": [{ try await $0.send(.patch, "/api/v1/me", json: #"{"email":"Librarian@example.org"}"#, as: .member) }],
        "listLoans 404": [{ try await $0.send(.get, "/api/v1/loans?member=nobody@example.org") }],
        // The member has a book out (the walk's loan): the account stays open; the only librarian stays.
        "closeMe 409": [{ try await $0.send(.delete, "/api/v1/me", as: .member) }],
        // A mistyped card number (its check digits fail) is refused as one, wherever a member is named.
        "showUser 400": [{ try await $0.send(.get, "/api/v1/users/2741038515") }, { try await $0.send(.get, "/api/v1/users/12345") }],
        "closeUser 400": [{ try await $0.send(.delete, "/api/v1/users/2741038515") }],
        "issueResetCode 400": [{ try await $0.send(.post, "/api/v1/users/2741038515/reset-code") }],
        "closeUser 404": [
            { try await $0.send(.delete, "/api/v1/users/nobody@example.org") },
            { try await $0.send(.delete, "/api/v1/users/\(ErrorWalk.ghost)") },
        ],
        "closeUser 409": [
            { try await $0.send(.delete, "/api/v1/users/ada@example.org") },
            { try await $0.send(.delete, "/api/v1/users/librarian@example.org") },
        ],
        "showUser 404": [
            { try await $0.send(.get, "/api/v1/users/nobody@example.org") },
            { try await $0.send(.get, "/api/v1/users/\(ErrorWalk.ghost)") },
            { try await $0.send(.get, "/api/v1/users/0000000098") },
        ],
        "lendAtDesk 400": [
            { try await $0.send(.post, "/api/v1/desk/loans", json: "[]") },
            { try await $0.send(.post, "/api/v1/desk/loans", json: #"{"card":"27410 38515","bookIds":["\#($0.book)"]}"#) },
            { try await $0.send(.post, "/api/v1/desk/loans", json: #"{"bookIds":["\#($0.book)"]}"#) },
            { try await $0.send(.post, "/api/v1/desk/loans", json: #"{"email":"ada@example.org","bookIds":[]}"#) },
        ],
        "lendAtDesk 404": [
            { try await $0.send(.post, "/api/v1/desk/loans", json: #"{"email":"nobody@example.org","bookIds":["\#($0.book)"]}"#) },
            { try await $0.send(.post, "/api/v1/desk/loans", json: #"{"card":"0000000098","bookIds":["\#($0.book)"]}"#) },
            { try await $0.send(.post, "/api/v1/desk/loans", json: #"{"email":"ada@example.org","bookIds":["\#(ErrorWalk.ghost)"]}"#) },
        ],
        // Ada has a copy of Middlemarch already.
        "lendAtDesk 409": [
            { try await $0.send(.post, "/api/v1/desk/loans", json: #"{"email":"ada@example.org","bookIds":["\#($0.lentBook)"]}"#) }
        ],
        "borrowBooks 400": [
            { try await $0.send(.post, "/api/v1/loans", json: "[]", as: .member) },
            { try await $0.send(.post, "/api/v1/loans", json: #"{"bookIds":[]}"#, as: .member) },
        ],
        "borrowBooks 404": [{ try await $0.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(ErrorWalk.ghost)"]}"#, as: .member) }],
        "borrowBooks 422": [
            { walk in
                try await walk.send(.post, "/api/v1/books", json: #"{"title":"Keyed","authors":["A"]}"#, key: "walk-borrow")
                return try await walk.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(walk.book)"]}"#, key: "walk-borrow")
            }
        ],
        "borrowBooks 409": [{ try await $0.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#($0.lentBook)"]}"#, as: .member) }],
        "returnLoan 404": [{ try await $0.send(.post, "/api/v1/loans/\(ErrorWalk.ghost)/return", as: .member) }],
        "renewLoan 404": [{ try await $0.send(.post, "/api/v1/loans/\(ErrorWalk.ghost)/renew", as: .member) }],
        "renewLoan 409": [
            { walk in
                for _ in 0..<2 { try await walk.send(.post, "/api/v1/loans/\(walk.loan)/renew", as: .member) }
                return try await walk.send(.post, "/api/v1/loans/\(walk.loan)/renew", as: .member)
            }
        ],
        "checkoutWalkIn 400": [{ try await $0.send(.post, "/api/v1/books/\($0.book)/checkout", json: #"{"borrowerName":" "}"#) }],
        "checkoutWalkIn 409": [
            { try await $0.send(.post, "/api/v1/books/\($0.lentBook)/checkout", json: #"{"borrowerName":"Mr Holmes"}"#) }
        ],
        "markNotificationRead 404": [{ try await $0.send(.post, "/api/v1/me/notifications/no-such-notice/read", as: .member) }],
        "searchBooks 503": [{ walk in try await upstreamDown(walk) { try await walk.send(.get, "/api/v1/search?q=tolkien") } }],
        "bookmarkWork 400": [{ try await $0.send(.put, "/api/v1/me/bookmarks/not-a-work", as: .member) }],
        "bookmarkWork 404": [{ try await $0.send(.put, "/api/v1/me/bookmarks/OL999999999W", as: .member) }],
        "bookmarkWork 503": [
            { walk in try await upstreamDown(walk) { try await walk.send(.put, "/api/v1/me/bookmarks/OL27448W", as: .member) } }
        ],
        "bookmarkBook 404": [{ try await $0.send(.put, "/api/v1/me/bookmarks/books/\(ErrorWalk.ghost)", as: .member) }],
        "aggregateHistory 400": [{ try await $0.send(.get, "/api/v1/audit/history") }],
        "aggregateHistory 404": [{ try await $0.send(.get, "/api/v1/audit/history?stream=no-such-stream") }],
        "asOf 400": [
            { try await $0.send(.get, "/api/v1/audit/as-of?view=books") },
            { try await $0.send(.get, "/api/v1/audit/as-of?at=yesterday&view=books") },
            { try await $0.send(.get, "/api/v1/audit/as-of?at=2026-01-01T00:00:00Z&view=member") },
        ],
        "asOf 404": [{ try await $0.send(.get, "/api/v1/audit/as-of?at=2026-01-01T00:00:00Z&view=member&member=nobody@example.org") }],
        "listBooks 400": [
            { try await $0.send(.get, "/api/v1/books?sort=bogus") },
            { try await $0.send(.get, "/api/v1/books?q=hello&limit=abc") },
        ],
        "createBook 400": [
            { try await $0.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"],"copies":1.5}"#) },
            { try await $0.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"],"shelf":"B2"}"#) },
            { try await $0.send(.post, "/api/v1/books", json: "not JSON at all") },
            { try await $0.send(.post, "/api/v1/books", json: #"{"title":" ","authors":[]}"#) },
        ],
        "createBook 422": [
            { walk in
                try await walk.send(.post, "/api/v1/books", json: #"{"title":"Keyed","authors":["A"]}"#, key: "walk-create")
                return try await walk.send(.post, "/api/v1/books", json: #"{"title":"Other","authors":["A"]}"#, key: "walk-create")
            }
        ],
        "createBook 409": [
            { walk in
                let book = #"{"title":"Emma","authors":["Jane Austen"],"isbn":"9780141439587"}"#
                try await walk.send(.post, "/api/v1/books", json: book)
                return try await walk.send(.post, "/api/v1/books", json: book)
            }
        ],
        "clearCatalogue 400": [
            { try await $0.send(.delete, "/api/v1/books") },
            { try await $0.send(.delete, "/api/v1/books?confirm=false") },
        ],
        "importBook 400": [
            { try await $0.send(.post, "/api/v1/books/import", json: #"{"isbn":"123"}"#) },
            { try await $0.send(.post, "/api/v1/books/import", json: #"{"isbn":"0140328726","copies":"two"}"#) },
        ],
        "importBook 404": [{ try await $0.send(.post, "/api/v1/books/import", json: #"{"isbn":"978-0-306-40615-7"}"#) }],
        "importBook 422": [
            { walk in
                try await walk.send(.post, "/api/v1/books", json: #"{"title":"Keyed","authors":["A"]}"#, key: "walk-import")
                return try await walk.send(.post, "/api/v1/books/import", json: #"{"isbn":"0140328726"}"#, key: "walk-import")
            }
        ],
        "importBook 409": [
            { walk in
                let fox = #"{"isbn":"0140328726","authors":["Roald Dahl"]}"#
                try await walk.send(.post, "/api/v1/books/import", json: fox)
                return try await walk.send(.post, "/api/v1/books/import", json: fox)
            }
        ],
        "importBook 503": [
            { walk in
                try await upstreamDown(walk) { try await walk.send(.post, "/api/v1/books/import", json: #"{"workKey":"OL20126932W"}"#) }
            }
        ],
        "updateBook 400": [
            { try await $0.send(.patch, "/api/v1/books/\($0.book)", json: #"{"copies":1.5}"#) },
            { try await $0.send(.patch, "/api/v1/books/\($0.book)", json: #"{"isbn":"hello"}"#) },
        ],
        "updateBook 409": [{ try await $0.send(.patch, "/api/v1/books/\($0.lentBook)", json: #"{"copies":1}"#) }],
        "deleteBook 409": [{ try await $0.send(.delete, "/api/v1/books/\($0.lentBook)") }],
    ]

    /// Runs `request` with Open Library answering 500s (the walk provokes these last: the
    /// client's breaker then stays open).
    private static func upstreamDown(_ walk: ErrorWalk, _ request: () async throws -> Answer) async throws -> Answer {
        walk.fake.switched.withLock { $0 = "error" }
        return try await request()
    }

    static func signup(_ email: String) -> String { #"{"email":"\#(email)","password":"Member-Pass1","country":"FR"}"# }
    static func login(_ email: String, _ password: String) -> String { #"{"email":"\#(email)","password":"\#(password)"}"# }
    static func change(_ current: String) -> String { #"{"currentPassword":"\#(current)","newPassword":"Member-Pass2!"}"# }
    static func reset(_ email: String, _ code: String, _ new: String = "Fresh-Start-3") -> String {
        #"{"email":"\#(email)","code":"\#(code)","newPassword":"\#(new)"}"#
    }
}
