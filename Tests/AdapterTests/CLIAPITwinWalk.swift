import Foundation
import Testing

/// The walk's steps, one area of the library each: every command with an API twin, run both ways.
extension Twins {
    func catalogue() async throws {
        let added = try await twin("book add", ["book", "add"] + bookArguments, .post, "/api/v1/books", json: book, volatile: bookWrite)
        let first = try await id(added)
        let imported = try await twin(
            "book import", ["book", "import", "--isbn", "0140328726", "--author", "Roald Dahl", "--copies", "2"], .post,
            "/api/v1/books/import",
            json: #"{"isbn":"0140328726","authors":["Roald Dahl"],"copies":2,"allowDuplicate":true}"#, volatile: bookWrite)
        _ = try await id(imported)
        try await twin("book show", ["book", "show", first], .get, "/api/v1/books/\(first)")
        try await twin("book list", ["book", "list"], .get, "/api/v1/books")
        try await twin(
            "book list", ["book", "list", "--sort", "title", "--limit", "2", "--offset", "1"], .get,
            "/api/v1/books?sort=title&limit=2&offset=1")
        // The same edit twice: the second changes nothing, so both answers are the book as it is.
        try await twin(
            "book edit", ["book", "edit", first, "--publisher", "Harper"], .patch, "/api/v1/books/\(first)",
            json: #"{"publisher":"Harper"}"#)
        try await failingTwin(
            ["book", "show", "7d2c1a0e-0000-4000-8000-000000000000"], .get, "/api/v1/books/7d2c1a0e-0000-4000-8000-000000000000")
        try await failingTwin(["book", "list", "--limit", "0"], .get, "/api/v1/books?limit=0")
    }

    func accounts() async throws {
        try await twin("whoami", ["whoami"], .get, "/api/v1/me")
        try await twin("countries list", ["countries", "list"], .get, "/api/v1/countries")
        try await twin(
            "countries list", ["countries", "list", "--limit", "5", "--offset", "40"], .get, "/api/v1/countries?limit=5&offset=40")
        try await twin(
            "countries default", ["countries", "default", "--accept-language", "fr-CA"], .get, "/api/v1/countries/default",
            headers: [.acceptLanguage: "fr-CA"])
        let bob = try await api.signUpMember("bob@example.org")
        try await twin("user list", ["user", "list"], .get, "/api/v1/users")
        let bobID = try #require(try await api.send(.get, "/api/v1/me", token: bob).object["id"] as? String)
        // By email over HTTP as on the command line; by id below.
        try await twin(
            "user promote", ["user", "promote", "bob@example.org"], .post, "/api/v1/users/bob@example.org/role",
            json: #"{"role":"librarian"}"#)
        try await twin(
            "user demote", ["user", "demote", "bob@example.org"], .post, "/api/v1/users/\(bobID)/role", json: #"{"role":"member"}"#)
        _ = try await cli(["logout"])
        // Two members signing up: the same answer but for who they are and when.
        try await twin(
            "signup", ["signup", "--login", "--email", "ada@example.org", "--name", "Member", "--country", "FR"], .post, "/api/v1/users",
            json: #"{"email":"cy@example.org","password":"Member-Pass1","displayName":"Member","country":"FR"}"#, token: .none,
            stdin: "Member-Pass1\n", volatile: ["id", "email", "token", "expiresAt", "registeredAt", "cardNumber"])
        try await twin("whoami", ["whoami"], .get, "/api/v1/me", token: try cliToken)
        try await twin("account show", ["account", "show"], .get, "/api/v1/me", token: try cliToken)
        // The same change both ways: the second changes nothing, so both answers are the account as it is.
        try await twin(
            "account edit", ["account", "edit", "--name", "Ada Member", "--country", "gb"], .patch, "/api/v1/me",
            json: #"{"displayName":"Ada Member","country":"gb"}"#, token: try cliToken)
    }

    func circulation() async throws {
        let ada = try cliToken
        let books = try #require(try await api.send(.get, "/api/v1/books?sort=oldest").object["items"] as? [[String: Any]])
        // The two books titled "Twin", added by the CLI and by the API.
        let twins = books.filter { $0["title"] as? String == "Twin" }.compactMap { $0["id"] as? String }
        try #require(twins.count == 2)
        let twinBook = twins[0]
        let loanWrite: Set<String> = ["id", "bookId", "lentAt", "dueAt"]
        // Ada borrows one "Twin" through the CLI, the other through the API: two loans alike.
        let borrowed = try await twin(
            "loan borrow", ["loan", "borrow", twins[0]], .post, "/api/v1/loans", json: #"{"bookIds":["\#(twins[1])"]}"#, token: ada,
            volatile: loanWrite)
        guard case .array(let loans)? = borrowed?["loans"] else {
            Issue.record("no loans")
            return
        }
        let loan = try await id(loans.first)
        let other = try #require(
            (try await api.send(.get, "/api/v1/me/loans", token: ada).object["items"] as? [[String: Any]])?.compactMap {
                $0["id"] as? String
            }
            .first { $0 != loan })
        try await twin("loan list (a member's own)", ["loan", "list"], .get, "/api/v1/me/loans", token: ada)
        try await twin("loan renew", ["loan", "renew", loan], .post, "/api/v1/loans/\(other)/renew", token: ada, volatile: loanWrite)
        try await twin(
            "loan return", ["loan", "return", loan], .post, "/api/v1/loans/\(other)/return", token: ada,
            volatile: loanWrite + ["returnedAt"])
        // A loan due within the due-soon window: a scan now gives Ada a notice.
        #expect(try await cli(["loan", "borrow", twinBook], settings: ["SHELFMARK_LOAN_DAYS": "1"]).status == 0)
        let scan = try await cli(["notices", "scan"], asOperator: true)
        #expect(scan.status == 0 && scan.stdout.contains("\"issued\" : 1"), "\(scan.stdout)\(scan.stderr)")
        let notices = try await twin("notices list", ["notices", "list"], .get, "/api/v1/me/notifications", token: ada)
        guard case .array(let items)? = notices?["items"] else {
            Issue.record("no notices")
            return
        }
        let notice = try await id(items.first)
        try await twin("notices read", ["notices", "read", notice], .post, "/api/v1/me/notifications/\(notice)/read", token: ada)
        try await twin("notices read --all", ["notices", "read", "--all"], .post, "/api/v1/me/notifications/read-all", token: ada)
        try await twin("logout", ["logout"], .delete, "/api/v1/sessions/current", token: try await api.signUpMember("dee@example.org"))
        try await twin(
            "login", ["login", "--email", "ada@example.org"], .post, "/api/v1/sessions",
            json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none, stdin: "Member-Pass1\n",
            volatile: ["token", "expiresAt"])
        let lib = try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n")
        #expect(lib.status == 0)
        try await twin("loan list", ["loan", "list"], .get, "/api/v1/loans")
        try await twin("loan list", ["loan", "list", "--member", "ada@example.org"], .get, "/api/v1/loans?member=ada@example.org")
        try await twin(
            // Each "Twin" to Mrs Hudson once: a walk-in name has one copy of a book at a time.
            "loan checkout", ["loan", "checkout", twins[0], "--name", "Mrs Hudson"], .post, "/api/v1/books/\(twins[1])/checkout",
            json: #"{"borrowerName":"Mrs Hudson"}"#, volatile: loanWrite)
        try await twin("loan list", ["loan", "list", "--book", twinBook, "--limit", "1"], .get, "/api/v1/loans?book=\(twinBook)&limit=1")
        // The desk lends Ada one book by email through the CLI, another by card through the API: two loans alike.
        let desk = try await (1...2).asyncMap { _ in
            try #require(try await api.send(.post, "/api/v1/books", json: #"{"title":"Desk","authors":["A"]}"#).object["id"] as? String)
        }
        let record = try await api.send(.get, "/api/v1/users/ada@example.org").object
        let card = try #require((record["user"] as? [String: Any])?["cardNumber"] as? String)
        try await twin(
            "desk lend", ["desk", "lend", "--email", "ada@example.org", desk[0]], .post, "/api/v1/desk/loans",
            json: #"{"card":"\#(card)","bookIds":["\#(desk[1])"]}"#, volatile: loanWrite)
        try await twin("user show", ["user", "show", "ada@example.org"], .get, "/api/v1/users/\(card)")
    }

    func holds() async throws {
        // A book whose only copy is out: members wait for it.
        let made = try await api.send(.post, "/api/v1/books", json: #"{"title":"Waited","authors":["Ann Author"],"copies":1}"#)
        let waited = try #require(try made.object["id"] as? String)
        #expect(try await api.send(.post, "/api/v1/books/\(waited)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#).status == .created)
        _ = try await cli(["logout"])
        #expect(try await cli(["login", "--email", "ada@example.org"], stdin: "Member-Pass1\n").status == 0)
        let ada = try cliToken
        let fay = try await api.signUpMember("fay@example.org")
        // Ada joins the line through the CLI, Fay through the API: two holds alike but for who and where.
        let holdWrite: Set<String> = ["id", "memberId", "memberName", "placedAt", "position"]
        let adas = try await id(
            try await twin(
                "hold place", ["hold", "place", waited], .post, "/api/v1/holds", json: #"{"bookId":"\#(waited)"}"#, token: fay,
                volatile: holdWrite))
        try await twin("hold list", ["hold", "list"], .get, "/api/v1/me/holds", token: ada)
        // Renewing all twice: the CLI's renewal, then the API's, of Ada's one active loan.
        try await twin(
            "loan renew --all", ["loan", "renew", "--all"], .post, "/api/v1/me/loans/renew-all", token: ada,
            volatile: ["dueAt", "renewals"])
        #expect(try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n").status == 0)
        try await twin("hold queue", ["hold", "queue", waited], .get, "/api/v1/books/\(waited)/holds")
        try await twin("hold list (librarians)", ["hold", "list"], .get, "/api/v1/holds")
        try await twin("hold list (librarians)", ["hold", "list", "--ready"], .get, "/api/v1/holds?status=ready")
        let fays = try #require(
            (try await api.send(.get, "/api/v1/me/holds", token: fay).object["items"] as? [[String: Any]])?.first?["id"] as? String)
        try await twin("hold cancel", ["hold", "cancel", adas], .delete, "/api/v1/holds/\(fays)", volatile: holdWrite)
    }

    func bookmarksAndSearch() async throws {
        _ = try await cli(["logout"])
        #expect(try await cli(["login", "--email", "ada@example.org"], stdin: "Member-Pass1\n").status == 0)
        let ada = try cliToken
        try await failingTwin(["user", "list"], .get, "/api/v1/users", token: ada)
        // Bookmarking twice is harmless: both answers are the bookmarks as they are.
        try await twin("bookmark add", ["bookmark", "add", "OL82563W"], .put, "/api/v1/me/bookmarks/OL82563W", token: ada)
        let book = try #require(
            (try await api.send(.get, "/api/v1/books?sort=oldest").object["items"] as? [[String: Any]])?.first?["id"] as? String)
        try await twin("bookmark add --book", ["bookmark", "add", "--book", book], .put, "/api/v1/me/bookmarks/books/\(book)", token: ada)
        try await twin("bookmark list", ["bookmark", "list", "--sort", "title"], .get, "/api/v1/me/bookmarks?sort=title", token: ada)
        try await twin("bookmark remove", ["bookmark", "remove", "OL82563W"], .delete, "/api/v1/me/bookmarks/OL82563W", token: ada)
        try await twin(
            "search", ["search", "lord of the rings", "--limit", "3"], .get, "/api/v1/search?title=lord%20of%20the%20rings&limit=3")
        try await twin(
            "logout --everywhere", ["logout", "--everywhere"], .delete, "/api/v1/sessions",
            token: try await api.signUpMember("eve@example.org"))
        #expect(try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n").status == 0)
    }

    func audit() async throws {
        try await twin("audit verify", ["audit", "verify"], .get, "/api/v1/audit/verify")
        let book = try #require(
            (try await api.send(.get, "/api/v1/books?sort=oldest").object["items"] as? [[String: Any]])?.first?["id"] as? String)
        try await twin("audit history", ["audit", "history", "--book", book], .get, "/api/v1/audit/history?book=\(book)")
        let history = try await twin(
            "audit history", ["audit", "history", "--member", "ada@example.org"], .get, "/api/v1/audit/history?member=ada@example.org")
        // The payload is an object, not JSON inside a string, its secrets redacted; the actor has a name.
        guard case .array(let events)? = history?["items"], case .object(let payload)? = events.first?["payload"] else {
            Issue.record("no history items with an object payload: \(String(describing: history))")
            return
        }
        #expect(payload["passwordHash"]?.string == "[redacted]" && events.first?["actorName"]?.string != nil)
        let now = Date().formatted(.iso8601)
        for view in ["books", "loans"] {
            try await twin("audit as-of", ["audit", "as-of", now, view], .get, "/api/v1/audit/as-of?at=\(now)&view=\(view)")
        }
        try await twin(
            "audit as-of", ["audit", "as-of", now, "member", "ada@example.org"], .get,
            "/api/v1/audit/as-of?at=\(now)&view=member&member=ada@example.org")
    }

    func clearing() async throws {
        let spare = try #require(try await api.send(.post, "/api/v1/books", json: book).object["id"] as? String)
        try await twin("book delete", ["book", "delete", spare], .delete, "/api/v1/books/\(spare)")
        // Whatever the CLI withdraws, the API's clear afterwards has nothing left to: only `kept` compares.
        try await twin("book clear", ["book", "clear", "--yes"], .delete, "/api/v1/books?confirm=true", volatile: ["withdrawn"])
    }
}

extension Set<String> {
    fileprivate static func + (set: Set<String>, more: [String]) -> Set<String> { set.union(more) }
}

extension Sequence {
    /// The transform of each element, one after the other.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
