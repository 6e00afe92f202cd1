import Application
import HTTPTypes

/// A resource's version as an HTTP entity tag, and the conditional headers that name versions.
/// A tag is the version (`"7.2"`), then, when the answer shows something of another record (a
/// book's last borrower's name, to a librarian), a digest of it (`"7.2;5c1e…"`): a rename changes
/// the tag though not the book. `If-Match` compares the version part, strongly (a weak tag never
/// matches); `If-None-Match` compares the whole tag, weakly.
enum EntityTags {
    /// The `ETag` of `version`, with a digest of `shown` (what the answer shows of other records) if any.
    static func tag(_ version: ResourceVersion, showing shown: String? = nil) -> String {
        guard let shown else { return "\"\(version)\"" }
        return "\"\(version);\(digest(shown))\""
    }

    /// The versions `If-Match` accepts; nil when it accepts any (absent or `*`). A well-formed tag
    /// that names no version (weak, or not numbers) matches none; a header that is not a list of
    /// entity tags is refused (400).
    static func accepted(ifMatch header: String?) throws -> Set<ResourceVersion>? {
        guard let header, header.trimmingCharacters(in: .whitespaces) != "*" else { return nil }
        return Set(
            try tags(header, name: "If-Match").compactMap { tag in
                tag.weak ? nil : ResourceVersion(tag.opaque.prefix { $0 != ";" })
            })
    }

    /// Whether `If-None-Match` names `current` (the whole tag) or is `*`: then the client's copy is
    /// current. A header that is not a list of entity tags names nothing: the full answer goes out.
    static func unchanged(ifNoneMatch header: String?, current: String) -> Bool {
        guard let header else { return false }
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        let opaque = current.dropFirst().dropLast()
        return ((try? tags(header, name: "If-None-Match")) ?? []).contains { $0.opaque == opaque }
    }

    /// 64-bit FNV-1a of the text's UTF-8, in hex: tells two texts apart, reveals nothing useful.
    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// The tags of a comma-separated list (RFC 9110: `W/` optional, then a quoted string of
    /// visible characters but `"`), each with whether it is weak and its text between the quotes.
    private static func tags(_ header: String, name: String) throws -> [(weak: Bool, opaque: Substring)] {
        let items = header.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.count <= 64, items.contains(where: { !$0.isEmpty }) else { throw InvalidInput(name, .notEntityTags) }
        return try items.filter { !$0.isEmpty }.map { item in
            var text = item[...]
            let weak = text.hasPrefix("W/")
            if weak { text = text.dropFirst(2) }
            guard text.utf8.count >= 2, text.first == "\"", text.last == "\"",
                text.utf8.dropFirst().dropLast().allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 })
            else { throw InvalidInput(name, .notEntityTags) }
            return (weak, text.dropFirst().dropLast())
        }
    }
}
