import APIContract
import Foundation

/// Prints `value` exactly as the API would send it (`ContractJSON`: the contract's names, its
/// date format, sorted keys).
func printJSON(_ value: some Encodable) throws {
    print(try ContractJSON.encode(value))
}

/// One line of a table: its cells, left to right.
typealias Row = [String]

/// Plain-text columns, each as wide as its widest cell (capped). A cell wider than the cap is cut
/// at a word, never inside one (a timestamp or an id longer than the cap is shown whole); a cell of
/// several lines takes as many, each continuation line under its own column.
func table(_ header: Row, _ rows: [Row], maxWidth: Int = 40) -> String {
    let lines = ([header] + rows).flatMap { row -> [Row] in
        let cells = row.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map { cut(String($0), maxWidth) } }
        let height = cells.map(\.count).max() ?? 1
        return (0..<height).map { line in cells.map { line < $0.count ? $0[line] : "" } }
    }
    let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
    return lines.map { row in
        // Trailing spaces only: a continuation line's leading ones put it under its column.
        let line = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        return String(line.reversed().drop { $0 == " " }.reversed())
    }.joined(separator: "\n")
}

/// `text` cut to `width` at the last space before it, with "…"; a text with no space there is kept whole.
func cut(_ text: String, _ width: Int) -> String {
    guard text.count > width, let space = text.prefix(width - 1).lastIndex(of: " ") else { return text }
    return text[..<space].trimmingCharacters(in: .whitespaces) + "…"
}

/// `text` wrapped at spaces into lines of at most `width` (a word longer than that on its own
/// line, whole), at most `lines` of them, the last cut at a word with "…" when there is more.
func wrapped(_ text: String, width: Int, lines: Int) -> String {
    var result: [String] = []
    for word in text.split(separator: " ") {
        if let last = result.last, last.count + 1 + word.count <= width {
            result[result.count - 1] = last + " " + word
        } else {
            result.append(String(word))
        }
    }
    guard result.count > lines else { return result.joined(separator: "\n") }
    return (result.prefix(lines - 1) + [cut(result[lines - 1] + " …", width)]).joined(separator: "\n")
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

    init(label: String, unit: String = t("cli.progress.events")) {
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
            let line = t(
                "cli.progress.line", label, number(done), number(total), unit, number(Int(rate)), number(Int(eta.rounded())))
            FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
        }
    }

    func finish() {
        if isTerminal && printed { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
