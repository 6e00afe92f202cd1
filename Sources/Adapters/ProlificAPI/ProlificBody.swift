import Application
import Domain
import Foundation

/// A field of a request body: absent, sent as null (or an empty form value), or text.
enum ProlificField: Equatable {
    case absent
    case null
    case text(String)

    /// The text, or nil when absent or null.
    var text: String? {
        if case .text(let value) = self { value } else { nil }
    }
}

/// A book as a request sends it (JSON or a form), fields not yet checked by any rule.
struct ProlificBookBody: Equatable {
    var title = ProlificField.absent
    var author = ProlificField.absent
    var categories = ProlificField.absent
    var publisher = ProlificField.absent
    var lastCheckedOut = ProlificField.absent
    var lastCheckedOutBy = ProlificField.absent

    /// The fields the API reads; others (`id`, `url`) are ignored, as the apps echo them back.
    static let fields = ["title", "author", "categories", "publisher", "lastCheckedOut", "lastCheckedOutBy"]

    /// Reads a body by its content type: JSON, a form, or (no type given) whichever it looks like.
    static func parse(_ bytes: [UInt8], contentType: String?) throws -> ProlificBookBody {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        switch type {
        case "application/json": return try json(bytes)
        case "application/x-www-form-urlencoded": return try form(bytes)
        case nil, "", "text/plain":
            return bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") ? try json(bytes) : try form(bytes)
        default: throw ProlificRequestRefused.unsupportedMediaType
        }
    }

    /// A JSON object; each field text or null (any other JSON type is refused, naming the field).
    static func json(_ bytes: [UInt8]) throws -> ProlificBookBody {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw ProlificRequestRefused.notJSON }
        guard nesting(bytes) <= 8, !DuplicateKeys.strayComma(in: bytes) else { throw ProlificRequestRefused.notJSON }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
            throw ProlificRequestRefused.notJSON
        }
        guard let dictionary = object as? [String: Any] else { throw ProlificRequestRefused.notAnObject }
        // Foundation keeps one of a key given twice: refused, as forms naming a field twice are.
        if let key = DuplicateKeys.first(in: bytes) { throw ProlificRequestRefused.duplicateKey(key) }
        var body = ProlificBookBody()
        var errors: [FieldError] = []
        for name in fields {
            guard let value = dictionary[name] else { continue }
            switch value {
            case is NSNull: body[name] = .null
            case let text as String: body[name] = .text(text)
            default: errors.append(FieldError(name, .wrongType(.string)))
            }
        }
        if !errors.isEmpty { throw InvalidInput(errors) }
        return body
    }

    /// `application/x-www-form-urlencoded`; an empty value reads as null, and so do `(null)` and
    /// `<null>`, which is how the Objective-C app writes nil and NSNull into a form (an edit would
    /// otherwise lend the book to a walk-in named "(null)"). A name given twice is refused.
    static func form(_ bytes: [UInt8]) throws -> ProlificBookBody {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ProlificRequestRefused.formMalformed }
        var body = ProlificBookBody()
        var seen: Set<String> = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw ProlificRequestRefused.formMalformed
            }
            guard seen.insert(name).inserted else { throw ProlificRequestRefused.formNamesTwice(name) }
            guard fields.contains(name) else { continue }
            body[name] = value.isEmpty || nilSpellings.contains(value) ? .null : .text(value)
        }
        return body
    }

    /// How Objective-C's string formatting writes nil (`%@` of nil) and `NSNull`.
    static let nilSpellings: Set<String> = ["(null)", "<null>"]

    private static func decode(_ part: Substring) -> String? {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// How deep arrays and objects nest, outside strings: a hostile body cannot make the parser recurse far.
    static func nesting(_ bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    subscript(name: String) -> ProlificField {
        get {
            switch name {
            case "title": title
            case "author": author
            case "categories": categories
            case "publisher": publisher
            case "lastCheckedOut": lastCheckedOut
            default: lastCheckedOutBy
            }
        }
        set {
            switch name {
            case "title": title = newValue
            case "author": author = newValue
            case "categories": categories = newValue
            case "publisher": publisher = newValue
            case "lastCheckedOut": lastCheckedOut = newValue
            default: lastCheckedOutBy = newValue
            }
        }
    }

    /// A list as the apps write it: items separated by commas, spaces around them trimmed, empty ones dropped.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// The book to add: title and author as sent (the catalogue's rules say what is missing or wrong).
    var draft: BookDraft {
        BookDraft(
            title: title.text ?? "", authors: author.text.map(Self.list) ?? [], publisher: publisher.text,
            categories: categories.text.map(Self.list) ?? [])
    }

    /// The changes a PUT asks for: only the fields present. A null title or author is sent on as
    /// empty (the catalogue refuses it); a null publisher or categories clears them.
    var changes: BookChanges {
        func value(_ field: ProlificField) -> String? {
            switch field {
            case .absent: nil
            case .null: ""
            case .text(let text): text
            }
        }
        return BookChanges(
            title: value(title), authors: value(author).map(Self.list), publisher: value(publisher),
            categories: value(categories).map(Self.list))
    }

    /// The name a checkout PUT lends the book to: `lastCheckedOutBy` with text (an edit sends
    /// null), unless the PUT only repeats the book's `last` checkout, its name (as `WalkInName`
    /// compares names) and its time to the second, as an app sends back a book it read. A time sent
    /// with a new name is the app's own clock (its docs: the name goes "along with the timestamp";
    /// found by an outside test, such a checkout was dropped with a 200): the server sets the time.
    func checkoutName(repeating last: (name: String?, at: Date)?) -> String? {
        guard case .text(let name) = lastCheckedOutBy, !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        guard let sent = lastCheckedOut.text.flatMap(ProlificDates.parse), let last, let lastName = last.name,
            WalkInName.key(lastName) == WalkInName.key(name), abs(sent.timeIntervalSince(last.at)) < 1
        else { return name }
        return nil
    }
}
