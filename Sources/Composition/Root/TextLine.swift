import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Lines for people, as swift-log's `StreamLogHandler` writes them (`2026-11-24T23:58:01+0000 info
/// shelfmark: method=GET route=… [HTTPAPI] request`), at less cost per line: the access log writes
/// one for every request. The time is formatted once a second (`StreamLogHandler` calls `strftime`
/// for every line, and formats its whole metadata again at each change of the logger's fields).
enum TextLine {
    /// The line for `event`: the logger's fields, then the provider's, then the event's (and its
    /// error's), each over the one before, as `StreamLogHandler` merges them.
    static func line(_ event: LogEvent, label: String, logger: Logger.Metadata, provided: Logger.Metadata) -> String {
        var fields = logger
        if !provided.isEmpty { fields.merge(provided) { _, new in new } }
        if let explicit = event.metadata, !explicit.isEmpty { fields.merge(explicit) { _, new in new } }
        if let error = event.error {
            fields["error.message"] = "\(error)"
            fields["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var line = LocalSeconds.shared.now()
        line += " "
        line += event.level.rawValue
        if !label.isEmpty { line += " " + label }
        line += ":"
        for key in fields.keys.sorted() {
            line += " " + key + "=" + fields[key]!.description
        }
        line += " [" + event.source + "] "
        line += event.message.description
        return line + "\n"
    }
}

/// The local time as `StreamLogHandler` writes it (`%Y-%m-%dT%H:%M:%S%z`), formatted once per
/// second of the clock and shared by every logger.
final class LocalSeconds: Sendable {
    static let shared = LocalSeconds()

    private let last = Mutex<(second: Int, text: String)>((-1, ""))

    /// This second's text.
    func now() -> String {
        let second = time(nil)
        if let text = last.withLock({ $0.second == second ? $0.text : nil }) { return text }
        let text = Self.format(second)
        last.withLock { $0 = (second, text) }
        return text
    }

    /// `second` in the local time zone, or `<unknown>` when it cannot be converted.
    static func format(_ second: time_t) -> String {
        var clock = second
        var parts = tm()
        guard localtime_r(&clock, &parts) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
