import Application
import Domain
import Foundation

/// `serve`'s rotating backups: none unless an interval is set.
public struct BackupSettings: Sendable, Equatable {
    /// Seconds between backups (`--backup-every`, `$SHELFMARK_BACKUP_EVERY`); nil: no scheduled backups.
    public var interval: TimeInterval?
    /// How many backups the folder keeps (`--keep`, `$SHELFMARK_BACKUP_KEEP`); older ones are removed.
    public var keep = 7
    /// Where they go (`--backup-dir`, `$SHELFMARK_BACKUP_DIR`); nil: `backups` beside the database.
    public var folder: String?

    public init() {}

    static let every = DurationSetting("SHELFMARK_BACKUP_EVERY", 1...365 * 86_400)

    /// The settings from the environment, each checked once: a bad one is one line naming it.
    static func resolve(environment: [String: String]) throws -> BackupSettings {
        var settings = BackupSettings()
        settings.interval = try every.read(environment[every.name])
        if let keep = try Settings.backupKeep.readInt(environment) { settings.keep = keep }
        settings.folder = environment["SHELFMARK_BACKUP_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        return settings
    }

    /// These settings with `serve`'s options (nil: not given) over them, checked as the variables are.
    public func overridden(every: String?, keep: String?, folder: String?) throws -> BackupSettings {
        var settings = self
        if let every { settings.interval = try DurationSetting("--backup-every", Self.every.range).read(every) }
        if let keep {
            let option = NumericSetting("--keep", Settings.backupKeep.range, whole: true)
            settings.keep = try option.readInt([option.name: keep]) ?? settings.keep
        }
        if let folder, !folder.isEmpty { settings.folder = folder }
        return settings
    }

    /// With backups scheduled, makes their folder (and its parents) now, so that a folder that
    /// cannot be one (a file's path, a folder this user may not write) stops `serve` at start-up,
    /// as every unusable setting does, not each backup later (found by an outside test). `option`
    /// names the option that gave the folder, else the variable, else the default's.
    func prepareFolder(for database: String, named option: String?) throws {
        guard interval != nil else { return }
        let path = folder(for: database)
        var isFolder: ObjCBool = false
        let made = (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
        guard made, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
            FileManager.default.isWritableFile(atPath: path)
        else {
            throw ConfigurationError(option ?? (folder != nil ? "SHELFMARK_BACKUP_DIR" : "the backup folder"), .folderUnusable(path))
        }
    }

    /// The folder the backups of the database at `database` go to.
    public func folder(for database: String) -> String {
        folder ?? URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("backups").path
    }
}

/// A duration setting written as a whole number and a unit: `45s`, `30m`, `6h`, `1d`.
struct DurationSetting: Sendable {
    let name: String
    let range: ClosedRange<TimeInterval>

    init(_ name: String, _ range: ClosedRange<TimeInterval>) {
        self.name = name
        self.range = range
    }

    static let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]

    /// What the setting allows.
    var allowed: FieldProblem { .notADuration(min: Self.written(range.lowerBound), max: Self.written(range.upperBound)) }

    /// Seconds, nil when unset or empty, or a `ConfigurationError` naming the setting.
    func read(_ raw: String?) throws -> TimeInterval? {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        guard let unit = raw.last.flatMap({ Self.units[$0] }), raw.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int(raw.dropLast()), count <= 10_000_000, range.contains(Double(count) * unit)
        else { throw ConfigurationError(name, value: raw, allowed) }
        return Double(count) * unit
    }

    /// Seconds written in the largest unit that divides them.
    static func written(_ seconds: TimeInterval) -> String {
        for (unit, size) in [("d", 86_400.0), ("h", 3_600), ("m", 60)]
        where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return "\(Int(seconds))s"
    }
}
