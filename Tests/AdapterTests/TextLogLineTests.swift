import Composition
import Foundation
import Logging
import Synchronization
import Testing

/// The text log (`--log-format text`, the default): the lines swift-log's `StreamLogHandler`
/// writes, from a handler cheap enough for one access line per request (issue 20).
@Suite("Text log lines")
struct TextLogLineTests {
    /// Collects what a `StreamLogHandler` writes.
    final class Lines: TextOutputStream, @unchecked Sendable {
        private let written = Mutex<[String]>([])
        func write(_ string: String) { written.withLock { $0.append(string) } }
        var all: [String] { written.withLock { $0 } }
    }

    struct Trouble: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    @Test func aLineIsTheOneStreamLogHandlerWritesForTheSameCall() throws {
        let ours = Mutex<[String]>([])
        let theirs = Lines()
        var logger = LogSettings(format: .text, level: .debug).logger(
            label: "shelfmark", to: LogStream { line in ours.withLock { $0.append(line) } })
        var reference = Logger(label: "shelfmark") { StreamLogHandler(label: $0, stream: theirs, metadataProvider: nil) }
        reference.logLevel = .debug
        for index in 0..<2 {
            var each = index == 0 ? logger : reference
            each[metadataKey: "hb.request.id"] = "7"
            each[metadataKey: "shared"] = "logger"
            each.info("request", metadata: ["status": "200", "shared": "call", "list": ["a", "b"]])
            each.debug("kept at debug", error: Trouble())
            each.trace("below the level")
            if index == 0 { logger = each }
        }
        let written = ours.withLock { $0 }
        #expect(written.count == 2 && theirs.all.count == 2, "\(written) \(theirs.all)")
        // The same line after the time (the two may straddle a second).
        func afterTime(_ line: String) -> Substring { line.drop { $0 != " " } }
        #expect(written.map(afterTime) == theirs.all.map(afterTime), "\(written) against \(theirs.all)")
        #expect(written.first?.contains(" shared=call ") == true && written.last?.contains("error.message=the disk is full") == true)
        let time = try #require(written.first.map { String($0.prefix { $0 != " " }) })
        #expect(time.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4}/) != nil, "\(time)")
    }

    @Test func controlCharactersAndLineSeparatorsAreEscapedAndTheRestKept() {
        let lines = Mutex<[String]>([])
        var logger = LogSettings(format: .text, level: .debug).logger(
            label: "shelfmark", to: LogStream { line in lines.withLock { $0.append(line) } })
        logger[metadataKey: "request_id"] = "a\rb"
        logger.info("two\nlines\t\u{1B}[2K \u{85}\u{2028}\u{2029}\u{7F}", metadata: ["name": "« Zoé ’ 本 »\n2026 error: forged"])
        logger.info("plain « Zoé ’ »")
        let written = lines.withLock { $0 }
        #expect(written.count == 2 && written.allSatisfy { $0.hasSuffix("\n") && !$0.dropLast().contains { $0.isNewline } }, "\(written)")
        #expect(written[0].hasSuffix(#"] two\nlines\t\u{1B}[2K \u{85}\u{2028}\u{2029}\u{7F}"# + "\n"), "\(written[0])")
        #expect(written[0].contains(#" name=« Zoé ’ 本 »\n2026 error: forged "#) && written[0].contains(#" request_id=a\rb "#))
        #expect(written[1].hasSuffix("] plain « Zoé ’ »\n"))
    }
}
