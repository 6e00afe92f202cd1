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
/// Control characters are escaped, so a value a client sent cannot write a line of its own.
enum TextLine {
    /// The line for `event`: the logger's fields, then the provider's, then the event's (and its
    /// error's), each over the one before, as `StreamLogHandler` merges them. The fields are
    /// gathered in a short list, from the last source to the first, rather than merged through
    /// dictionaries: the access line writes one for every request.
    static func line(_ event: LogEvent, label: String, logger: Logger.Metadata, provided: Logger.Metadata) -> String {
        var fields: [(key: String, value: Logger.Metadata.Value)] = []
        fields.reserveCapacity(logger.count + provided.count + (event.metadata?.count ?? 0) + 2)
        func add(_ key: String, _ value: Logger.Metadata.Value) {
            if !fields.contains(where: { $0.key == key }) { fields.append((key, value)) }
        }
        if let error = event.error {
            add("error.message", "\(error)")
            add("error.type", "\(String(reflecting: type(of: error)))")
        }
        for (key, value) in event.metadata ?? [:] { add(key, value) }
        for (key, value) in provided { add(key, value) }
        for (key, value) in logger { add(key, value) }
        fields.sort { $0.key < $1.key }
        var line = LocalSeconds.shared.now()
        line.reserveCapacity(256)
        line += " "
        line += event.level.rawValue
        if !label.isEmpty { line += " " + label }
        line += ":"
        for (key, value) in fields {
            line += " "
            line += escaped(key)
            line += "="
            line += escaped(value.description)
        }
        line += " ["
        line += escaped(event.source)
        line += "] "
        line += escaped(event.message.description)
        line += "\n"
        return line
    }

    /// `text` with what could end a line or drive a terminal written as an escape (`\n`, `\r`,
    /// `\t`, `\u{1B}`; the C0 and C1 controls, DEL, and the line and paragraph separators). Text
    /// without any (no byte below 0x20, no DEL, no lead byte of U+0080–U+00BF or U+2000–U+2FFF) is
    /// returned as it is, without a copy.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
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
