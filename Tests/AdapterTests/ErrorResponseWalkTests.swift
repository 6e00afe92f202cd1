import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HTTPAPI

/// Walks every error response the contract declares (each operation × each 4xx and 5xx), provokes
/// it through the real application over HTTP, and fails on any answer not written for people: not
/// a problem document, a Swift type or library text in what a person reads, a word about a body
/// on a request that has none, a 503 or 429 without `Retry-After`, a 201 without `Location`.
@Suite("HTTP errors: every declared error response, as a person reads it")
struct ErrorResponseWalkTests {
    static let contract = Result { try ContractShapes(contract: String(decoding: try HTTPServer.contract(), as: UTF8.self)) }

    @Test func everyDeclaredErrorResponseIsAProblemDocumentWrittenForPeople() async throws {
        let contract = try Self.contract.get()
        let declared = contract.operations.flatMap { operation in
            operation.statuses.compactMap(Int.init).filter { $0 >= 400 }.map { (operation: operation, status: $0) }
        }
        #expect(declared.count >= 90)
        let stale = Set(ErrorProvocations.unprovokable.keys).subtracting(declared.map { "\($0.operation.id) \($0.status)" })
        #expect(stale.isEmpty, "listed as unprovokable but no longer declared: \(stale.sorted())")

        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(
                mode: .live,
                configure: {
                    $0.openLibraryURL = base + "/switch"
                    $0.coversURL = "https://covers.example"
                    $0.trustedProxies = ["127.0.0.1"]
                    $0.authAttemptsPerMinute = 5
                    // The 429s come from one emptied address; the walk's accounts are not limited.
                    $0.rates.addressWritesPerMinute = ErrorWalk.addressRate
                    $0.rates.addressSearchesPerMinute = ErrorWalk.addressRate
                }
            ) { api in
                let walk = try await ErrorWalk.prepare(api, fake)
                var failures: [String] = []
                // Open Library goes down for the 503s, so they come last.
                let ordered = declared.filter { $0.status != 503 } + declared.filter { $0.status == 503 }
                for (operation, status) in ordered where ErrorProvocations.unprovokable["\(operation.id) \(status)"] == nil {
                    let provocations = ErrorProvocations.of(operation, status: status)
                    if provocations.isEmpty {
                        failures.append("\(operation.id) \(status): no request provokes it; add one, or list it as unprovokable with why")
                    }
                    for provoke in provocations {
                        let response = try await provoke(walk)
                        failures += ProblemChecks.failures(response, expected: status, operation: operation)
                    }
                }
                failures += ProblemChecks.headerFailures(walk.seen.withLock { $0 })
                #expect(failures.isEmpty, "\(failures.count) answers not written for people:\n\(failures.joined(separator: "\n"))")
            }
        }
    }

    /// Every 201 says where the new thing can be read, and it can be read there.
    @Test func everyCreatedAnswerHasALocationThatCanBeRead() async throws {
        let contract = try Self.contract.get()
        let creating = Set(contract.operations.filter { $0.statuses.contains("201") }.map(\.id))
        #expect(
            creating == Set(Self.creations.keys),
            "operations answering 201 without a creation here: \(creating.subtracting(Self.creations.keys))")
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(
                mode: .live,
                configure: {
                    $0.openLibraryURL = base + "/ok"; $0.trustedProxies = ["127.0.0.1"]
                }
            ) { api in
                let walk = try await ErrorWalk.prepare(api, fake)
                for (operation, create) in Self.creations.sorted(by: { $0.key < $1.key }) {
                    let (created, token) = try await create(walk)
                    #expect(created.status == .created, "\(operation): \(created.status) \(created.text)")
                    let location = try #require(created.headers[.location], "\(operation): a 201 without Location")
                    #expect(location.hasPrefix("/api/v1/"), "\(operation): \(location)")
                    let read = try await api.client.execute(uri: location, method: .get, headers: [.authorization: "Bearer \(token)"])
                    #expect(read.status == .ok, "\(operation): GET \(location) answered \(read.status)")
                }
            }
        }
    }

    /// Each operation answering 201, done once, with the token that may read what it made.
    static let creations: [String: @Sendable (ErrorWalk) async throws -> (Answer, String)] = [
        "signUp": { walk in
            let response = try await walk.send(.post, "/api/v1/users", json: ErrorProvocations.signup("grace@example.org"), as: .anonymous)
            return (response, try response.object["token"] as? String ?? "")
        },
        "logIn": { walk in
            let response = try await walk.send(
                .post, "/api/v1/sessions", json: ErrorProvocations.login("ada@example.org", "Member-Pass1"), as: .anonymous)
            return (response, try response.object["token"] as? String ?? "")
        },
        "placeHold": { walk in
            // The librarian waits for the book whose copies are both out (the member has one of them).
            (try await walk.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(walk.lentBook)"}"#), walk.api.librarianToken)
        },
        "borrowBooks": { walk in
            (try await walk.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(walk.book)"]}"#, as: .member), walk.member)
        },
        "checkoutWalkIn": { walk in
            (
                try await walk.send(.post, "/api/v1/books/\(walk.book)/checkout", json: #"{"borrowerName":"Mr Holmes"}"#),
                walk.api.librarianToken
            )
        },
        "lendAtDesk": { walk in
            let made = try await walk.send(.post, "/api/v1/books", json: #"{"title":"Persuasion","authors":["Jane Austen"]}"#)
            let book = try made.object["id"] as? String ?? ""
            return (
                try await walk.send(.post, "/api/v1/desk/loans", json: #"{"email":"ada@example.org","bookIds":["\#(book)"]}"#),
                walk.api.librarianToken
            )
        },
        "createBook": { walk in
            (try await walk.send(.post, "/api/v1/books", json: #"{"title":"Emma","authors":["Jane Austen"]}"#), walk.api.librarianToken)
        },
        "importBook": { walk in
            (
                try await walk.send(.post, "/api/v1/books/import", json: #"{"isbn":"0140328726","authors":["Roald Dahl"]}"#),
                walk.api.librarianToken
            )
        },
    ]
}
