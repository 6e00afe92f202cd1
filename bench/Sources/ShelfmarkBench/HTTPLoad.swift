import Application
import Domain
import Foundation

/// What one wrk run measured.
struct WrkResult {
    var requestsPerSecond: Double
    var p50: Double
    var p99: Double
    var failed: Int
}

/// Runs wrk (2 threads, `connections` connections) against `url`, with an optional Lua script.
func wrk(_ url: String, script: String? = nil, connections: Int = 64, seconds: Int) throws -> WrkResult {
    var arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", url]
    if let script { arguments += ["-s", script] }
    let output = try run("/usr/bin/wrk", arguments)
    func number(after label: String) -> String? {
        output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }?
            .split(separator: " ", omittingEmptySubsequences: true).dropFirst(label.split(separator: " ").count).first.map(String.init)
    }
    func ms(_ text: String?) -> Double {
        guard let text else { return .nan }
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(unit) {
            return (Double(text.dropLast(unit.count)) ?? .nan) * scale
        }
        return .nan
    }
    guard let rate = number(after: "Requests/sec:").flatMap(Double.init) else { throw BenchError("wrk printed: \(output)") }
    let failed = (number(after: "Non-2xx or 3xx responses:").flatMap(Int.init) ?? 0)
        + (output.contains("Socket errors") ? 1 : 0)
    return WrkResult(requestsPerSecond: rate, p50: ms(number(after: "50%")), p99: ms(number(after: "99%")), failed: failed)
}

/// A library for the HTTP scenarios: 1,000 books of 1,000 copies, 200 members and a librarian, with their tokens.
func seedHTTPLibrary(at path: String) async throws -> (books: [BookID], members: [String], librarian: String) {
    let (library, database) = try openBenchLibrary(path)
    defer { try? database.close() }
    var books: [BookID] = []
    for n in 0..<1_000 {
        books.append(try await library.catalogue.addBook.execute(
            BookDraft(title: "Book \(n)", authors: ["Author \(n % 53)"], categories: ["bench"]), copies: 1_000, by: .cliOperator).id)
    }
    let members = try await signUpMembers(200, library).map(\.token)
    let librarian = try await library.accounts.signUp.execute(
        SignupForm(email: "librarian@bench.example", password: "Bench-Pass-L", country: "FR"), role: .librarian, by: .cliOperator)
    guard let token = librarian.session?.token else { throw BenchError("the librarian has no session") }
    return (books, members, token)
}

/// The borrow+return cycle for wrk: each thread borrows one book as the next member, and sends
/// the return (as the librarian) of every loan it was given before borrowing again.
func cycleScript(books: [BookID], members: [String], librarian: String) -> String {
    """
    local books = {\(books.map { "\"\($0)\"" }.joined(separator: ","))}
    local members = {\(members.map { "\"\($0)\"" }.joined(separator: ","))}
    local librarian = "Bearer \(librarian)"
    local returns = {}
    local n = 0
    local threads = 0
    setup = function(thread)
      thread:set("id", threads)
      threads = threads + 1
    end
    request = function()
      if #returns > 0 then
        local id = table.remove(returns, 1)
        return wrk.format("POST", "/api/v1/loans/" .. id .. "/return", {["Authorization"] = librarian})
      end
      n = n + 1
      local k = n * 2 + id  -- the two threads take turns: never the same member and book at once
      local body = '{"bookIds":["' .. books[(k % #books) + 1] .. '"]}'
      return wrk.format("POST", "/api/v1/loans", {["Authorization"] = "Bearer " .. members[(k % #members) + 1], ["Content-Type"] = "application/json"}, body)
    end
    response = function(status, headers, body)
      if status == 201 then
        local id = body:match('"id"%s*:%s*"([^"]+)"')
        if id then table.insert(returns, id) end
      end
    end
    """
}
