import APIContract
import Foundation

/// Prints `value` exactly as the API would send it (`ContractJSON`: the contract's names, its
/// date format, sorted keys).
func printJSON(_ value: some Encodable) throws {
    print(try ContractJSON.encode(value))
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
    private let unit: String
    private let start = Date()
    private let lock = NSLock()
    private var lastPrint = Date.distantPast
    private var printed = false
    private let isTerminal = isatty(STDERR_FILENO) == 1

    init(label: String, unit: String = "events") {
        self.label = label
        self.unit = unit
    }

    func update(_ done: Int64, of total: Int64) {
        lock.withLock {
            let now = Date()
            guard now.timeIntervalSince(lastPrint) >= (isTerminal ? 0.1 : 5) || done == total else { return }
            lastPrint = now
            printed = true
            let elapsed = max(now.timeIntervalSince(start), 0.001)
            let rate = Double(done) / elapsed
            let eta = rate > 0 ? Double(total - done) / rate : 0
            let line = "\(label): \(done)/\(total) \(unit), \(Int(rate)) \(unit)/s, ETA \(Int(eta.rounded()))s"
            FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
        }
    }

    func finish() {
        if isTerminal && printed { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
