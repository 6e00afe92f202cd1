import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The whole server with Open Library and REST Countries behind one fake whose behaviour changes
/// while the server runs: each fault gets a clear answer, the rest of the API keeps serving, and
/// everything works again once the upstream does.
@Suite("Upstream faults through the server")
struct UpstreamFaultTests {
    @Test func eachFaultIsAnsweredClearlyTheRestServesAndAllRecovers() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/switch"
                $0.coversURL = "https://covers.example"
                $0.countriesURL = base + "/switch"
            }) { api in
                // The country list was fetched (and kept) when the librarian signed up.
                for fault in ["reset", "error", "garbage"] {
                    fake.switched.withLock { $0 = fault }
                    let search = try await api.send(.get, "/api/v1/search?q=harry%20potter", token: .none)
                    #expect(search.status == .serviceUnavailable, "\(fault): \(search.text)")
                    #expect(search.problemType == "urn:shelfmark:problem:search-unavailable", "\(fault)")
                    let imported = try await api.send(
                        .post, "/api/v1/books/import", json: #"{"isbn":"0140328726","authors":["Roald Dahl"]}"#)
                    #expect(imported.status == .serviceUnavailable, "\(fault): \(imported.text)")
                    #expect(imported.problemType != nil)
                    #expect(try await api.send(.get, "/api/v1/countries", token: .none).status == .ok, "\(fault)")
                    #expect(try await api.send(.get, "/api/v1/books", token: .none).status == .ok, "\(fault)")
                }
                let books = try await api.send(.get, "/api/v1/books", token: .none)
                #expect(try books.object["total"] as? Int == 0, "a failed import added nothing")

                // A hanging upstream holds its own request only: the health check answers meanwhile.
                fake.switched.withLock { $0 = "hang" }
                let slowDone = Mutex(false)
                let slow = Task {
                    defer { slowDone.withLock { $0 = true } }
                    return try await api.send(.get, "/api/v1/search?q=harry%20potter", token: .none).status
                }
                try await Task.sleep(for: .milliseconds(100))
                #expect(try await api.send(.get, "/api/v1/health", token: .none).status == .ok)
                #expect(slowDone.withLock { $0 } == false, "the health check waited for the hanging search")
                _ = try await slow.value

                // Back to normal: search (a query never cached) and import work again.
                fake.switched.withLock { $0 = "ok" }
                let search = try await api.send(.get, "/api/v1/search?title=lord%20of%20the%20rings", token: .none)
                #expect(search.status == .ok, "\(search.text)")
                #expect(try search.object["stale"] as? Bool == false)
                let imported = try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"0140328726","authors":["Roald Dahl"]}"#)
                #expect(imported.status == .created, "\(imported.text)")
            }
        }
    }
}
