import Application
import Foundation
import Hummingbird

/// The fields of a submitted form (`application/x-www-form-urlencoded`), in order.
struct Form: Sendable {
    let fields: [(name: String, value: String)]

    /// The form the request being answered carries (empty for a GET).
    @TaskLocal static var current = Form(fields: [])

    /// The first value of `name`, trimmed; nil when absent or empty.
    subscript(_ name: String) -> String? {
        let value = fields.first { $0.name == name }?.value.trimmingCharacters(in: .whitespacesAndNewlines)
        return value?.isEmpty == false ? value : nil
    }

    /// The first value of `name` exactly as typed (passwords keep their spaces); nil when absent.
    func raw(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The `offset` of a list's page, within what a page may ask (a link typed wrong shows the first page, not an error).
    var offset: Int { min(max(Int(self["offset"] ?? "") ?? 0, 0), PageRequest.maxOffset) }

    /// Every non-empty value of `name` (a group of checkboxes).
    func all(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map { $0.value.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The query of a request's address, read as browsers write a GET form's fields (`+` for a space).
    static func query(of request: Request) -> Form { request.uri.query.flatMap(parse) ?? Form(fields: []) }

    /// Reads an encoded form; nil when it is not one (bad percent-encoding).
    static func parse(_ body: String) -> Form? {
        var fields: [(String, String)] = []
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            fields.append((name, value))
        }
        return Form(fields: fields)
    }

    private static func decode(_ part: Substring) -> String? {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
