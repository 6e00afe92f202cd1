import Application
import HTTPTypes

/// A resource's version as an HTTP entity tag (`"7.2"`), and the conditional headers that name
/// versions: `If-Match` (strong comparison: a weak tag never matches) and `If-None-Match` (weak).
enum EntityTags {
    /// The `ETag` of `version`.
    static func tag(_ version: ResourceVersion) -> String { "\"\(version)\"" }

    /// The versions `If-Match` accepts; nil when it accepts any (absent or `*`). A well-formed tag
    /// that names no version (weak, or not numbers) matches none; a header that is not a list of
    /// entity tags is refused (400).
    static func accepted(ifMatch header: String?) throws -> Set<ResourceVersion>? {
        guard let header, header.trimmingCharacters(in: .whitespaces) != "*" else { return nil }
        return Set(try tags(header, name: "If-Match").compactMap { $0.weak ? nil : $0.version })
    }

    /// Whether `If-None-Match` names `current` (or is `*`): then the client's copy is current. A
    /// header that is not a list of entity tags names nothing, and the full answer goes out.
    static func unchanged(ifNoneMatch header: String?, current: ResourceVersion) -> Bool {
        guard let header else { return false }
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return ((try? tags(header, name: "If-None-Match")) ?? []).contains { $0.version == current }
    }

    /// The tags of a comma-separated list (RFC 9110: `W/` optional, then a quoted string of
    /// visible characters but `"`), each with whether it is weak and the version it names.
    private static func tags(_ header: String, name: String) throws -> [(weak: Bool, version: ResourceVersion?)] {
        let items = header.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.count <= 64, items.contains(where: { !$0.isEmpty }) else { throw InvalidInput(name, .notEntityTags) }
        return try items.filter { !$0.isEmpty }.map { item in
            var text = item[...]
            let weak = text.hasPrefix("W/")
            if weak { text = text.dropFirst(2) }
            guard text.utf8.count >= 2, text.first == "\"", text.last == "\"",
                text.utf8.dropFirst().dropLast().allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 })
            else { throw InvalidInput(name, .notEntityTags) }
            return (weak, ResourceVersion(text.dropFirst().dropLast()))
        }
    }
}
