import Foundation

@testable import HTTPAPI

/// The list operations of the contract, read from `openapi.yaml` by its indentation: every GET
/// whose 200 answer is an object with an `items` array (inline or through `$ref`, `allOf` included).
struct ContractLists {
    struct Operation: Equatable {
        let path: String
        /// The `$ref`s of its parameters (`#/components/parameters/Limit`).
        let parameterRefs: [String]
        /// The names of its inline parameters.
        let parameterNames: [String]
    }

    let lines: [Substring]

    init() throws {
        lines = String(decoding: try HTTPServer.contract(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Every GET of the contract with the lines of its definition.
    var gets: [(path: String, body: [Substring])] {
        var found: [(String, [Substring])] = []
        var path = ""
        var body: [Substring]?
        func close() {
            if let body { found.append((path, body)) }
            body = nil
        }
        for line in lines {
            if line.hasPrefix("components:") { break }
            if line.hasPrefix("  /") {
                close()
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     ") {
                close()
                if line == "    get:" { body = [] }
            } else {
                body?.append(line)
            }
        }
        close()
        return found
    }

    /// The lines of a component schema.
    func schema(_ name: String) -> [Substring] {
        guard let start = lines.firstIndex(of: "    \(name):"[...]) else { return [] }
        return Array(lines[(start + 1)...].prefix { $0.hasPrefix("     ") || $0.isEmpty })
    }

    /// The lines of a GET's 200 answer schema, `$ref`s to component schemas followed.
    func answer(_ body: [Substring]) -> [Substring] {
        guard let ok = body.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "'200':" }) else { return [] }
        let indent = body[ok].prefix { $0 == " " }.count
        let lines = body[(ok + 1)...].prefix { $0.prefix { $0 == " " }.count > indent }
        return expand(Array(lines), depth: 0)
    }

    private func expand(_ lines: [Substring], depth: Int) -> [Substring] {
        guard depth < 5 else { return lines }
        return lines.flatMap { line -> [Substring] in
            guard let range = line.range(of: "#/components/schemas/") else { return [line] }
            let name = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber }
            return [line] + expand(schema(String(name)), depth: depth + 1)
        }
    }

    /// Whether an answer's lines declare an `items` property of type array (not the `items:` keyword of an array).
    static func hasItemsArray(_ lines: [Substring]) -> Bool {
        zip(lines, lines.dropFirst()).contains { line, next in
            line.trimmingCharacters(in: .whitespaces) == "items:" && next.trimmingCharacters(in: .whitespaces) == "type: array"
        }
    }

    /// Whether an answer is a bare array (a list outside the envelope).
    static func isBareArray(_ lines: [Substring]) -> Bool {
        zip(lines, lines.dropFirst()).contains { line, next in
            let line = line.trimmingCharacters(in: .whitespaces)
            return line.hasPrefix("schema: {type: array")
                || (line == "schema:" && next.trimmingCharacters(in: .whitespaces) == "type: array")
        }
    }

    /// Every list operation: a GET answering `items`.
    var listOperations: [Operation] {
        gets.filter { Self.hasItemsArray(answer($0.body)) }.map { get in
            let refs = get.body.compactMap { line -> String? in
                guard let range = line.range(of: "$ref: '#/components/parameters/") else { return nil }
                return "#/components/parameters/" + line[range.upperBound...].prefix { $0 != "'" }
            }
            let names = get.body.compactMap { line -> String? in
                guard let range = line.range(of: "{name: ") else { return nil }
                return String(line[range.upperBound...].prefix { $0 != "," })
            }
            return Operation(path: get.path, parameterRefs: refs, parameterNames: names)
        }
    }
}
