import Application
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How `serve` writes its log: `--log-format text|json` (`SHELFMARK_LOG_FORMAT`), `--log-level`
/// (`LOG_LEVEL`), both checked once: a bad value is one line naming the setting.
public struct LogSettings: Sendable, Equatable {
    /// Lines for people, or one JSON object per line for a log collector.
    public enum Format: String, Sendable, CaseIterable { case text, json }

    public var format = Format.text
    public var level = Logger.Level.info

    public init(format: Format = .text, level: Logger.Level = .info) {
        self.format = format
        self.level = level
    }

    /// The environment's settings with `serve`'s options (nil: not given) over them.
    public static func resolve(format: String?, level: String?, environment: [String: String]) throws -> LogSettings {
        var settings = LogSettings()
        if let raw = Self.given(format, option: "--log-format", environment, "SHELFMARK_LOG_FORMAT") {
            guard let chosen = Format(rawValue: raw.value.lowercased()) else {
                throw ConfigurationError(raw.name, value: raw.value, .notOneOf(Format.allCases.map(\.rawValue)))
            }
            settings.format = chosen
        }
        if let raw = Self.given(level, option: "--log-level", environment, "LOG_LEVEL") {
            guard let chosen = Logger.Level(rawValue: raw.value.lowercased()) else {
                throw ConfigurationError(raw.name, value: raw.value, .notOneOf(Logger.Level.allCases.map(\.rawValue)))
            }
            settings.level = chosen
        }
        return settings
    }

    /// The option's value when given, else the variable's; empty is unset.
    private static func given(_ option: String?, option name: String, _ environment: [String: String], _ variable: String) -> (
        name: String, value: String
    )? {
        if let option, !option.isEmpty { return (name, option) }
        if let value = environment[variable], !value.isEmpty { return (variable, value) }
        return nil
    }

    /// A logger writing to standard error in this format, from this level.
    public func logger(label: String, to stream: LogStream = .standardError) -> Logger {
        // Every line written while a request is served names it, whoever's logger writes it.
        let request = Logger.MetadataProvider {
            RequestTrace.current.map { ["request_id": .string($0.idText)] } ?? [:]
        }
        var logger =
            switch format {
            case .text: Logger(label: label) { LineLogHandler(label: $0, format: .text, stream: stream, metadataProvider: request) }
            case .json: Logger(label: label) { LineLogHandler(label: $0, format: .json, stream: stream, metadataProvider: request) }
            }
        logger.logLevel = level
        return logger
    }
}

/// Where log lines go: standard error, or (for tests) a closure given each whole line.
public struct LogStream: Sendable {
    let write: @Sendable (String) -> Void

    public init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    /// The process's standard error, one whole line per `write(2)` (a line cut short by the
    /// system is finished by the next calls, under a lock, so lines never interleave). A line
    /// that cannot be written (standard error closed) is dropped, never a crash.
    public static let standardError = LogStream { line in
        var line = line
        errorLock.withLock { _ in
            line.withUTF8 { bytes in
                var rest = UnsafeRawBufferPointer(bytes)
                while !rest.isEmpty {
                    let written = systemWrite(2, rest.baseAddress, rest.count)
                    if written < 0, errno == EINTR { continue }
                    if written <= 0 { return }
                    rest = UnsafeRawBufferPointer(rebasing: rest[written...])
                }
            }
        }
    }
    private static let errorLock = Mutex(())
}

/// The C library's `write(2)`, named apart from `LogStream.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #else
        Musl.write(descriptor, bytes, count)
    #endif
}

/// One log line per event, written whole to a stream, in one of the two formats (`JSONLine`,
/// `TextLine`). The logger's own fields are kept as a dictionary: Hummingbird and the access log
/// set some on every request.
struct LineLogHandler: LogHandler {
    let label: String
    let format: LogSettings.Format
    let stream: LogStream
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, format: LogSettings.Format, stream: LogStream, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.format = format
        self.stream = stream
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let provided = metadataProvider?.get() ?? [:]
        let line =
            switch format {
            case .text: TextLine.line(event, label: label, logger: metadata, provided: provided)
            case .json: JSONLine.line(event, label: label, logger: metadata, provided: provided)
            }
        stream.write(line)
    }
}

/// One JSON object per line: `time` (UTC, milliseconds), `level`, `label`, `message`, then each
/// metadata field as a string (a list or dictionary as JSON); a field named like one of the first
/// four is written with a `_` in front. Control characters are escaped, so a line is always one line.
enum JSONLine {
    static let reserved: Set<String> = ["time", "level", "label", "message"]

    /// The line for `event`: the provider's fields, then the logger's, then the event's, each over the one before.
    static func line(_ event: LogEvent, label: String, logger: Logger.Metadata, provided: Logger.Metadata) -> String {
        var line = "{\"time\":\(JSONText.quoted(time(Date())))"
        line += ",\"level\":\(JSONText.quoted(event.level.rawValue)),\"label\":\(JSONText.quoted(label))"
        line += ",\"message\":\(JSONText.quoted("\(event.message)"))"
        let fields = provided.merging(logger) { _, new in new }.merging(event.metadata ?? [:]) { _, new in new }
        for key in fields.keys.sorted() {
            let name = reserved.contains(key) ? "_" + key : key
            line += ",\(JSONText.quoted(name)):\(JSONText.value(fields[key]!))"
        }
        return line + "}\n"
    }

    static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `2026-11-24T05:40:00.123Z`.
    static func time(_ date: Date) -> String { timeStyle.format(date) }
}

/// JSON text for log fields, escaped by hand (a log line is written often: no encoder per line).
enum JSONText {
    static func value(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .stringConvertible(let item): quoted(item.description)
        case .array(let items): "[" + items.map(Self.value).joined(separator: ",") + "]"
        case .dictionary(let fields):
            "{" + fields.keys.sorted().map { quoted($0) + ":" + Self.value(fields[$0]!) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
