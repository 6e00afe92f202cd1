import Composition
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

@Suite("HTTP API: circulation and notices")
struct HTTPCirculationTests {
    func addBook(_ api: APIClient, _ title: String, copies: Int = 1) async throws -> String {
        try #require(
            try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(title)","authors":["A"],"copies":\#(copies)}"#).object["id"]
                as? String)
    }

    @Test func borrowReturnRenewAndWhoHasWhich() async throws {
        try await withAPI { api in
            let dune = try await addBook(api, "Dune", copies: 2)
            let ada = try await api.signUpMember("ada@example.org")
            let borrowed = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada)
            #expect(borrowed.status == .created, "\(borrowed.text)")
            let loan = try #require((try borrowed.object["loans"] as? [[String: Any]])?.first)
            let id = try #require(loan["id"] as? String)
            #expect(loan["overdue"] as? Bool == false)
            #expect(try await api.send(.get, "/api/v1/books/\(dune)").object["available"] as? Int == 1)

            let renewed = try await api.send(.post, "/api/v1/loans/\(id)/renew", token: ada)
            #expect(try renewed.object["renewals"] as? Int == 1)
            let who = try await api.send(.get, "/api/v1/loans?member=ada@example.org").object["items"] as? [[String: Any]]
            #expect(who?.map { $0["bookTitle"] as? String } == ["Dune"])
            let byBook = try await api.send(.get, "/api/v1/loans?book=\(dune)").object["items"] as? [[String: Any]]
            #expect(byBook?.map { $0["borrowerName"] as? String } == ["ada"])
            #expect((try await api.send(.get, "/api/v1/loans?overdue=true").object["items"] as? [Any])?.isEmpty == true)

            let returned = try await api.send(.post, "/api/v1/loans/\(id)/return", token: ada)
            let returnedAt = try returned.object["returnedAt"]
            #expect(returned.status == .ok && returnedAt != nil)
            #expect(try await api.send(.post, "/api/v1/loans/\(id)/return", token: ada).status == .ok)
            #expect(try await api.send(.get, "/api/v1/books/\(dune)").object["available"] as? Int == 2)
            let mine = try await api.send(.get, "/api/v1/me/loans", token: ada).object["items"] as? [[String: Any]]
            #expect(mine?.count == 1)
        }
    }

    @Test func aRefusalNamesTheBookAndTheRuleAndLendsNothing() async throws {
        try await withAPI { api in
            let a = try await addBook(api, "A")
            let gone = try await addBook(api, "Gone")
            _ = try await api.send(
                .post, "/api/v1/loans", json: #"{"bookIds":["\#(gone)"]}"#, token: try await api.signUpMember("bob@example.org"))
            let ada = try await api.signUpMember("ada@example.org")
            let refused = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(a)","\#(gone)"]}"#, token: ada)
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("no copy of “Gone” is available") && !refused.text.contains(gone), "\(refused.text)")
            #expect(try await api.send(.get, "/api/v1/books/\(a)").object["available"] as? Int == 1)
            var six: [String] = []
            for n in 1...6 { six.append(try await addBook(api, "Six \(n)")) }
            let tooMany = try await api.send(
                .post, "/api/v1/loans", json: #"{"bookIds":[\#(six.map { "\"\($0)\"" }.joined(separator: ","))]}"#, token: ada)
            #expect(tooMany.status == .conflict && tooMany.problemType == "urn:shelfmark:problem:loan-refused")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":[]}"#, token: ada).status == .badRequest)
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["nope"]}"#, token: ada).status == .notFound)
        }
    }

    @Test func walkInCheckoutIsTheLastCheckout() async throws {
        try await withAPI { api in
            let dune = try await addBook(api, "Dune")
            let loan = try await api.send(.post, "/api/v1/books/\(dune)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#)
            #expect(loan.status == .created)
            let book = try await api.send(.get, "/api/v1/books/\(dune)").object
            #expect((book["lastCheckout"] as? [String: Any])?["name"] as? String == "Mrs Hudson")
            #expect(try await api.send(.delete, "/api/v1/books/\(dune)").status == .conflict)
            let member = try await api.signUpMember("ada@example.org")
            #expect(
                try await api.send(.post, "/api/v1/books/\(dune)/checkout", json: #"{"borrowerName":"X"}"#, token: member).status
                    == .forbidden)
        }
    }

    @Test func noticesReachOnlyTheirMemberAndComeWithLogin() async throws {
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-notices-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("library.sqlite").path
        try await withAPI(databasePath: path, clock: clock) { api in
            let dune = try await addBook(api, "Dune")
            let ada = try await api.signUpMember("ada@example.org")
            let bob = try await api.signUpMember("bob@example.org")
            _ = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada)
            clock.advance(by: 15 * 24 * 3600)
            var configuration = ShelfmarkConfiguration(databasePath: path)
            configuration.durability = .off
            let (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: RandomIDsForTests())
            #expect(try await library.circulation.scan.execute(by: .system) == 1)
            try database.close()

            let notices = try await api.send(.get, "/api/v1/me/notifications", token: ada).object
            #expect(notices["unread"] as? Int == 1)
            let id = try #require((notices["items"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await api.send(.get, "/api/v1/me/notifications", token: bob).object["unread"] as? Int == 0)
            #expect(try await api.send(.post, "/api/v1/me/notifications/\(id)/read", token: bob).status == .notFound)

            let login = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            let carried = try #require(try login.object["notifications"] as? [String: Any])
            #expect(carried["unread"] as? Int == 1 && (carried["items"] as? [Any])?.count == 1)

            #expect(try await api.send(.post, "/api/v1/me/notifications/\(id)/read", token: ada).status == .noContent)
            #expect(try await api.send(.get, "/api/v1/me/notifications", token: ada).object["unread"] as? Int == 0)
            #expect(try await api.send(.post, "/api/v1/me/notifications/read-all", token: ada).status == .noContent)

            let overdue = try await api.send(.get, "/api/v1/loans?overdue=true").object["items"] as? [[String: Any]]
            #expect(overdue?.first?["overdue"] as? Bool == true)
            let blocked = try await api.send(
                .post, "/api/v1/loans", json: #"{"bookIds":["\#(try await addBook(api, "Other"))"]}"#, token: ada)
            #expect(blocked.status == .conflict && blocked.text.contains("overdue"))
        }
    }

    @Test func everyCirculationRouteIsAuthorized() async throws {
        try await withAPI { api in
            let dune = try await addBook(api, "Dune", copies: 5)
            let member = try await api.signUpMember("member@example.org")
            let other = try await api.signUpMember("other@example.org")
            let loan = try #require(
                (try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: other).object["loans"]
                    as? [[String: Any]])?.first?["id"] as? String)
            let routes: [(HTTPRequest.Method, String, String?, HTTPResponse.Status, HTTPResponse.Status, HTTPResponse.Status)] = [
                (.get, "/api/v1/loans", nil, .unauthorized, .forbidden, .ok),
                (.get, "/api/v1/me/loans", nil, .unauthorized, .ok, .ok),
                (.get, "/api/v1/me/notifications", nil, .unauthorized, .ok, .ok),
                (.post, "/api/v1/me/notifications/read-all", nil, .unauthorized, .noContent, .noContent),
                (.post, "/api/v1/loans/\(loan)/renew", nil, .unauthorized, .notFound, .ok),
                (.post, "/api/v1/books/\(dune)/checkout", #"{"borrowerName":"Walk In"}"#, .unauthorized, .forbidden, .created),
                (.post, "/api/v1/loans", #"{"bookIds":["\#(dune)"]}"#, .unauthorized, .created, .created),
                (.post, "/api/v1/loans/\(loan)/return", nil, .unauthorized, .notFound, .ok),
            ]
            for (method, uri, json, anonymous, asMember, asLibrarian) in routes {
                #expect(try await api.send(method, uri, json: json, token: .none).status == anonymous, "anonymous \(method) \(uri)")
                #expect(try await api.send(method, uri, json: json, token: member).status == asMember, "member \(method) \(uri)")
                #expect(try await api.send(method, uri, json: json).status == asLibrarian, "librarian \(method) \(uri)")
            }
        }
    }

    @Test func serveScansForNoticesAtStartUp() async throws {
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-scan-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("library.sqlite").path
        let ada = try await withAPI(databasePath: path, clock: clock) { api in
            let token = try await api.signUpMember("ada@example.org")
            _ = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(try await addBook(api, "Dune"))"]}"#, token: token)
            return token
        }
        clock.advance(by: 13 * 24 * 3600)
        try await withAPI(mode: .live, databasePath: path, clock: clock) { api in
            var unread = 0
            for _ in 0..<100 where unread == 0 {
                unread = try await api.send(.get, "/api/v1/me/notifications", token: ada).object["unread"] as? Int ?? 0
                if unread == 0 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(unread == 1)
        }
    }
}
