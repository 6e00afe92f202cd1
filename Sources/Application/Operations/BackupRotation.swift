import Foundation

/// The backups `serve` keeps in a folder: one file per run, named for its moment
/// (`library-20250301-060000Z.sqlite`, which sorts as time does), the newest `keep` kept.
public struct BackupRotation: Equatable, Sendable {
    /// The library file's name without its extension (`library`).
    public let prefix: String
    /// How many backups to keep.
    public let keep: Int

    public init(database: String, keep: Int) {
        let name = (database as NSString).lastPathComponent
        prefix = (name as NSString).deletingPathExtension.isEmpty ? name : (name as NSString).deletingPathExtension
        self.keep = keep
    }

    /// The backup's file name for a run at `moment`.
    public func fileName(at moment: Date) -> String { "\(prefix)-\(Self.stamp(moment)).sqlite" }

    /// The backups among `names` past the newest `keep`, oldest first. Only names this rotation
    /// gives count: other files in the folder are never chosen.
    public func expired(_ names: [String]) -> [String] {
        let ours = names.filter(isOurs).sorted()
        return Array(ours.dropLast(keep))
    }

    /// Whether `name` is a backup this rotation made.
    public func isOurs(_ name: String) -> Bool {
        guard name.hasPrefix(prefix + "-"), name.hasSuffix(".sqlite") else { return false }
        let stamp = name.dropFirst(prefix.count + 1).dropLast(".sqlite".count)
        return stamp.wholeMatch(of: /\d{8}-\d{6}Z/) != nil
    }

    /// `20250301-060000Z`: a moment in UTC, to the second, for file names that sort as time does.
    public static func stamp(_ moment: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: moment)
        func two(_ n: Int?) -> String { String(format: "%02d", n ?? 0) }
        return String(format: "%04d", c.year ?? 0) + two(c.month) + two(c.day) + "-" + two(c.hour) + two(c.minute) + two(c.second) + "Z"
    }
}
