import Application

/// One route of the API, read from a path (a trailing slash or none).
enum ProlificRoute: Equatable {
    /// `/{key}/books`.
    case books
    /// `/{key}/books/{n}`; nil when `n` is not a number any book could have.
    case book(Int?)
    /// `/{key}/clean`.
    case clean
    /// Anything else under the key.
    case unknown

    /// The key and the route of `path`, or nil when the path has no key-shaped first segment.
    static func parse(_ path: String) -> (key: String, route: ProlificRoute)? {
        guard ProlificAPI.isKeyPath(path) else { return nil }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let key = segments.removeFirst()
        // One trailing slash is the same path (one app always sends it, others never do).
        if segments.count > 1, segments.last == "" { segments.removeLast() }
        switch segments {
        case ["books"]: return (key, .books)
        case ["clean"]: return (key, .clean)
        case let s where s.count == 2 && s[0] == "books": return (key, .book(number(s[1])))
        default: return (key, .unknown)
        }
    }

    /// A book number as written in a path: 1 to 18 ASCII digits, no sign, no leading zero.
    static func number(_ text: String) -> Int? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text.first != "0" else {
            return nil
        }
        return Int(text)
    }

    /// The route as logs and metrics name it, the key left out.
    var template: String {
        switch self {
        case .books: "/{key}/books"
        case .book: "/{key}/books/{number}"
        case .clean: "/{key}/clean"
        case .unknown: "/{key}/unknown"
        }
    }

    /// The methods the route answers.
    var allowed: [String] {
        switch self {
        case .books: ["GET", "HEAD", "POST"]
        case .book: ["GET", "HEAD", "PUT", "DELETE"]
        case .clean: ["DELETE"]
        case .unknown: []
        }
    }
}
