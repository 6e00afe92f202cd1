import Application
import HTTPTypes

/// A resource's version as an HTTP entity tag (`"7.2"`), and the conditional headers that name
/// versions: `If-Match` (strong comparison: a weak tag never matches) and `If-None-Match` (weak).
enum EntityTags {
    /// The `ETag` of `version`.
    static func tag(_ version: ResourceVersion) -> String { "\"\(version)\"" }

    /// The versions `If-Match` accepts; nil when it accepts any (absent or `*`). A tag that names
    /// no version (weak, unquoted, not numbers) matches none.
    static func accepted(ifMatch header: String?) -> Set<ResourceVersion>? {
        guard let header, header.trimmingCharacters(in: .whitespaces) != "*" else { return nil }
        return Set(tags(header).compactMap { $0.weak ? nil : $0.version })
    }

    /// Whether `If-None-Match` names `current` (or is `*`): then the client's copy is current.
    static func unchanged(ifNoneMatch header: String?, current: ResourceVersion) -> Bool {
        guard let header else { return false }
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return tags(header).contains { $0.version == current }
    }

    /// The tags of a comma-separated list, each with whether it is weak and the version it names.
    private static func tags(_ header: String) -> [(weak: Bool, version: ResourceVersion?)] {
        header.split(separator: ",").prefix(64).map { item in
            var text = item.trimmingCharacters(in: .whitespaces)[...]
            let weak = text.hasPrefix("W/")
            if weak { text = text.dropFirst(2) }
            guard text.count >= 2, text.first == "\"", text.last == "\"" else { return (weak, nil) }
            return (weak, ResourceVersion(text.dropFirst().dropLast()))
        }
    }
}
