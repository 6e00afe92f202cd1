import Application
import Domain
import Foundation
import Synchronization

/// What the contention scenario saw.
struct ContentionResult {
    var loansPerSecond: Double
    var p50: Double
    var p99: Double
    var refused: Int
    /// Acknowledged loans held at once beyond a book's copies, summed over the books: must be 0.
    var oversold: Int
}

/// Scenario 3: 64 members race for the copies of the same 10 books (3 copies each): each borrows a
/// random one, holds it briefly, returns it. The bench counts the acknowledged loans out at any
/// moment per book; more than its copies would be an oversold copy.
func contention(writers: Int = 64, rounds: Int = 40, books: Int = 10, copies: Int = 3, folder: URL) async throws -> ContentionResult {
    let (library, database) = try openBenchLibrary(folder.appendingPathComponent("contention-\(UUID()).sqlite").path)
    defer { try? database.close() }
    var added: [BookID] = []
    for n in 0..<books {
        added.append(try await library.catalogue.addBook.execute(BookDraft(title: "Contended \(n)", authors: ["A"]), copies: copies, by: .cliOperator).id)
    }
    let ids = added
    let members = try await signUpMembers(writers, library)
    let held = Ledger(books: books)
    let start = DispatchTime.now().uptimeNanoseconds
    let outcomes = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
        for member in members {
            group.addTask {
                var latencies: [Double] = []
                var refused = 0
                for _ in 0..<rounds {
                    let book = Int.random(in: 0..<books)
                    let began = DispatchTime.now().uptimeNanoseconds
                    do {
                        let loan = try await library.circulation.borrow.execute([ids[book]], by: member.principal)[0]
                        latencies.append(milliseconds(since: began))
                        held.state.withLock { state in
                            state.out[book] += 1
                            if state.out[book] > copies { state.oversold += 1 }
                        }
                        await Task.yield()
                        // Counted as back before the return is sent: the count never exceeds the truth.
                        held.state.withLock { $0.out[book] -= 1 }
                        _ = try await library.circulation.giveBack.execute(loan.id, by: member.principal)
                    } catch is LoanRefused {
                        refused += 1
                    } catch is BookRefused {
                        refused += 1
                    }
                }
                return (latencies, refused)
            }
        }
        return try await group.reduce(into: ([Double](), 0)) { $0.0 += $1.0; $0.1 += $1.1 }
    }
    let seconds = milliseconds(since: start) / 1000
    // The log's own answer: no book ever had more copies out than it owns.
    for id in ids {
        guard try await library.catalogue.showBook.execute(id).onLoan == 0 else {
            throw BenchError("book \(id) still shows copies out after every loan was returned")
        }
    }
    return ContentionResult(
        loansPerSecond: Double(outcomes.0.count) / seconds, p50: percentile(outcomes.0, 0.5), p99: percentile(outcomes.0, 0.99),
        refused: outcomes.1, oversold: held.state.withLock { $0.oversold })
}

/// Acknowledged loans out per book, and how often one went past the book's copies.
final class Ledger: Sendable {
    let state: Mutex<(out: [Int], oversold: Int)>
    init(books: Int) { state = Mutex((out: [Int](repeating: 0, count: books), oversold: 0)) }
}
