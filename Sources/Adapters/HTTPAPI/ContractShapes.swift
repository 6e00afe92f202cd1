import APIContract
import Domain

/// What the contract says each operation takes and answers, read from the bundled `openapi.yaml`
/// when the router is built: the kind of each parameter and body field, so a request the
/// generated code cannot decode is answered naming the field and what it expects (the choices of
/// an enumeration as the contract lists them), and the statuses each operation declares.
struct ContractShapes: Sendable {
    /// One operation of the contract.
    struct Operation: Sendable {
        let id: String
        let method: String
        /// The path as the contract writes it, under the server URL (`/books/{id}`).
        let path: String
        /// Path-level parameters first, then the operation's, in the document's order.
        let parameters: [Parameter]
        /// The JSON body's shape, when the operation takes one.
        let body: Shape?
        /// The declared response statuses (`201`, `400`, …).
        let statuses: [String]
    }

    /// A path, query or header parameter.
    struct Parameter: Sendable {
        let name: String
        let location: String
        let required: Bool
        let shape: Shape
    }

    /// The kind of value a schema describes.
    indirect enum Shape: Sendable, Equatable {
        case text, integer, number, boolean, time
        case choice([String])
        case list(Shape)
        /// An object's properties; `closed` when it refuses other keys.
        case object([String: Shape], closed: Bool)
        case unknown
    }

    let operations: [Operation]

    init(operations: [Operation]) { self.operations = operations }

    /// Reads the contract; a document that is not YAML is an error at start-up.
    init(contract text: String) throws {
        let document = try YAMLValue.parse(text)
        var operations: [Operation] = []
        for path in document["paths"]?.entries ?? [] {
            let shared = path.value["parameters"]?.items ?? []
            for method in path.value.entries where Self.methods.contains(method.key) {
                let operation = method.value
                let parameters = (shared + (operation["parameters"]?.items ?? [])).map { Self.parameter($0, in: document) }
                let body = operation["requestBody"].map { Self.resolve($0, in: document) }?["content"]?["application/json"]?["schema"]
                operations.append(
                    Operation(
                        id: operation["operationId"]?.string ?? "", method: method.key.uppercased(), path: path.key, parameters: parameters,
                        body: body.map { Self.shape($0, in: document) }, statuses: operation["responses"]?.entries.map(\.key) ?? []))
            }
        }
        self.init(operations: operations)
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The operation with this `operationId`.
    func operation(_ id: String) -> Operation? { operations.first { $0.id == id } }

    private static func parameter(_ value: YAMLValue, in document: YAMLValue) -> Parameter {
        let value = resolve(value, in: document)
        return Parameter(
            name: value["name"]?.string ?? "", location: value["in"]?.string ?? "", required: value["required"]?.string == "true",
            shape: value["schema"].map { shape($0, in: document) } ?? .unknown)
    }

    /// A `$ref` followed within the document (`#/components/...`).
    private static func resolve(_ value: YAMLValue, in document: YAMLValue, depth: Int = 0) -> YAMLValue {
        guard let reference = value["$ref"]?.string, reference.hasPrefix("#/"), depth < 16 else { return value }
        let target = reference.dropFirst(2).split(separator: "/").reduce(Optional(document)) { $0?[String($1)] }
        return target.map { resolve($0, in: document, depth: depth + 1) } ?? value
    }

    private static func shape(_ value: YAMLValue, in document: YAMLValue, depth: Int = 0) -> Shape {
        let schema = resolve(value, in: document)
        guard depth < 16 else { return .unknown }
        if let choices = schema["enum"]?.items.compactMap(\.string), !choices.isEmpty { return .choice(choices) }
        if let parts = schema["allOf"]?.items {
            var properties: [String: Shape] = [:]
            var closed = false
            for case .object(let more, let isClosed) in parts.map({ shape($0, in: document, depth: depth + 1) }) {
                properties.merge(more) { first, _ in first }
                closed = closed || isClosed
            }
            return .object(properties, closed: closed)
        }
        switch schema["type"]?.string {
        case "string": return schema["format"]?.string == "date-time" ? .time : .text
        case "integer": return .integer
        case "number": return .number
        case "boolean": return .boolean
        case "array": return .list(schema["items"].map { shape($0, in: document, depth: depth + 1) } ?? .unknown)
        case "object":
            var properties: [String: Shape] = [:]
            for property in schema["properties"]?.entries ?? [] {
                properties[property.key] = shape(property.value, in: document, depth: depth + 1)
            }
            return .object(properties, closed: schema["additionalProperties"]?.string == "false")
        default: return .unknown
        }
    }
}

extension ContractShapes.Shape {
    /// The shape at a coding path inside this one (`["authors", "1"]`), or nil where it says nothing.
    func at(_ path: [String]) -> Self? {
        guard let first = path.first else { return self }
        switch self {
        case .object(let properties, _): return properties[first]?.at(Array(path.dropFirst()))
        case .list(let element): return Int(first) == nil ? nil : element.at(Array(path.dropFirst()))
        default: return nil
        }
    }

    /// The errors `check` finds in a parsed JSON `value` of this shape and in every field and item
    /// the contract describes inside it, named as a client names fields (`address.city`,
    /// `authors[1]`), keys in sorted order.
    func errors(in value: Any, at path: String = "", _ check: (Any, Self, String) -> FieldError?) -> [FieldError] {
        if let found = check(value, self, path) { return [found] }
        switch (self, value) {
        case (.object(let properties, _), let object as [String: Any]):
            return object.keys.sorted().flatMap { key in
                properties[key].map { $0.errors(in: object[key]!, at: path.isEmpty ? key : "\(path).\(key)", check) } ?? []
            }
        case (.list(let element), let items as [Any]):
            return items.enumerated().flatMap { element.errors(in: $1, at: "\(path)[\($0)]", check) }
        default: return []
        }
    }

    /// What a value of this shape must be, said as a field problem; nil for free text.
    var expectation: FieldProblem? {
        switch self {
        case .text: .wrongType(.string)
        case .integer: .wrongType(.integer)
        case .number: .wrongType(.number)
        case .boolean: .wrongType(.boolean)
        case .time: .wrongType(.time)
        case .choice(let choices): .notOneOf(choices)
        case .list: .wrongType(.array)
        case .object: .wrongType(.object)
        case .unknown: nil
        }
    }

    /// True when `text`, as it came in a path, query or header, is a value of this shape.
    func admits(_ text: String, dates: WholeSecondDates = WholeSecondDates()) -> Bool {
        switch self {
        case .integer: Int(text) != nil
        case .number: Double(text) != nil
        case .boolean: text == "true" || text == "false"
        case .time: (try? dates.decode(text)) != nil
        case .choice(let choices): choices.contains(text)
        case .text, .list, .object, .unknown: true
        }
    }
}
