import Application
import ArgumentParser
import Domain
import Foundation

/// A failure told to the user in one line; the process exits non-zero.
struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a command body, turning any error into one clear line (no stack traces).
func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as CLIFailure {
        throw error
    } catch let error as ConfigurationError {
        // A setting that cannot be used: one line, and status 2 (nothing was started or changed).
        FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
        throw ExitCode(2)
    } catch let error as BookRefused {
        if case .invalid(let errors) = error.rejection {
            throw CLIFailure("invalid input: " + errors.map(\.description).joined(separator: "; "))
        }
        throw CLIFailure(error.description)
    } catch let error as InvalidInput {
        throw CLIFailure("invalid input: \(error)")
    } catch let error as CustomStringConvertible {
        throw CLIFailure(error.description)
    }
}

func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// A book as `--json` prints it: the same field names as the HTTP API.
struct BookJSON: Encodable {
    let id: String
    let title: String
    let authors: [String]
    let isbn: String?
    let publisher: String?
    let categories: [String]
    let coverUrl: String?
    let description: String?
    let copies: Int
    let onLoan: Int
    let available: Int
    let addedAt: Date
    let updatedAt: Date

    init(_ e: CatalogueEntry) {
        id = e.id.description
        title = e.details.title
        authors = e.details.authors
        isbn = e.details.isbn?.isbn13
        publisher = e.details.publisher
        categories = e.details.categories
        coverUrl = e.details.coverURL
        description = e.details.description
        copies = e.copies
        onLoan = e.onLoan
        available = e.available
        addedAt = e.addedAt
        updatedAt = e.updatedAt
    }
}

/// Plain-text columns, each as wide as its widest cell (capped).
func table(_ header: [String], _ rows: [[String]], maxWidth: Int = 40) -> String {
    let cells = ([header] + rows).map { $0.map { $0.count > maxWidth ? String($0.prefix(maxWidth - 1)) + "…" : $0 } }
    let widths = header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
    return cells.map { row in
        zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
}

/// Progress of long work on stderr: a redrawn bar on a terminal, a line every few seconds otherwise.
final class Progress: @unchecked Sendable {
    private let label: String
    private let start = Date()
    private let lock = NSLock()
    private var lastPrint = Date.distantPast
    private var printed = false
    private let isTerminal = isatty(STDERR_FILENO) == 1

    init(label: String) { self.label = label }

    func update(_ done: Int64, of total: Int64) {
        lock.withLock {
            let now = Date()
            guard now.timeIntervalSince(lastPrint) >= (isTerminal ? 0.1 : 5) || done == total else { return }
            lastPrint = now
            printed = true
            let elapsed = max(now.timeIntervalSince(start), 0.001)
            let rate = Double(done) / elapsed
            let eta = rate > 0 ? Double(total - done) / rate : 0
            let line = "\(label): \(done)/\(total) events, \(Int(rate)) events/s, ETA \(Int(eta.rounded()))s"
            FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
        }
    }

    func finish() {
        if isTerminal && printed { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
