/// One command of the BitBooks protocol, as a client wrote it: ASCII words separated by spaces.
/// A password is the rest of its line (after the username and the one space that follows it), so
/// it may hold spaces, as the password policy allows.
enum BitBooksCommand: Equatable, Sendable {
    case addUser(name: String, surname: String, username: String, password: String)
    case logIn(username: String, password: String)
    case getBooks
    case getBook(isbn: String)
    case loan(username: String, isbns: [String])
    case getLoans(username: String)
    case checkNotifications(username: String)
    /// A command word the protocol has, with the wrong number of words after it: its usage.
    case misused(usage: String)
    /// Anything else, binary garbage included.
    case unknown

    /// The command in `bytes`: UTF-8 text without control characters, else `unknown`.
    init(_ bytes: [UInt8]) {
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }), let text = String(validating: bytes, as: UTF8.self) else {
            self = .unknown
            return
        }
        let words = text.split(separator: " ").map(String.init)
        guard let verb = words.first, let usage = Self.usages[verb] else {
            self = .unknown
            return
        }
        // The text after the command word, as typed.
        let rest = text.drop(while: { $0 == " " }).dropFirst(verb.count)
        self = Self.parse(verb, Array(words.dropFirst()), rest: rest) ?? .misused(usage: usage)
    }

    /// Each command word and how it is written.
    static let usages = [
        "ADD_USER": "ADD_USER NAME SURNAME USERNAME PASSWORD", "LOGIN": "LOGIN USERNAME PASSWORD", "GET_BOOKS": "GET_BOOKS",
        "GET_BOOK": "GET_BOOK ISBN", "LOAN": "LOAN USERNAME ISBN [ISBN...]", "GET_LOANS": "GET_LOANS USERNAME",
        "CHECK_NOTIFICATIONS": "CHECK_NOTIFICATIONS USERNAME",
    ]

    private static func parse(_ verb: String, _ words: [String], rest: Substring) -> BitBooksCommand? {
        switch (verb, words.count) {
        case ("ADD_USER", 4...):
            fields(rest, 4).map { .addUser(name: $0[0], surname: $0[1], username: $0[2], password: $0[3]) }
        case ("LOGIN", 2...): fields(rest, 2).map { .logIn(username: $0[0], password: $0[1]) }
        case ("GET_BOOKS", 0): .getBooks
        case ("GET_BOOK", 1): .getBook(isbn: words[0])
        case ("LOAN", 2...): .loan(username: words[0], isbns: Array(words.dropFirst()))
        case ("GET_LOANS", 1): .getLoans(username: words[0])
        case ("CHECK_NOTIFICATIONS", 1): .checkNotifications(username: words[0])
        default: nil
        }
    }

    /// `count` fields of `text`: words (spaces between them skipped), then the rest of the line
    /// after the one space that ends the last word, as typed (a password, spaces and all); nil
    /// when one is empty.
    private static func fields(_ text: Substring, _ count: Int) -> [String]? {
        var fields: [String] = []
        var rest = text
        for _ in 1..<count {
            rest = rest.drop { $0 == " " }
            let word = rest.prefix { $0 != " " }
            guard !word.isEmpty else { return nil }
            fields.append(String(word))
            rest = rest.dropFirst(word.count).dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        return fields + [String(rest)]
    }
}
