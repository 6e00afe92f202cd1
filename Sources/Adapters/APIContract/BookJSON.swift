import Domain
import Foundation

/// A page of books, or one book, as the JSON bytes the API answers, written by hand: byte for byte
/// what the generated code's `JSONEncoder` writes for `BookPage` and `Book` (compact, keys sorted, slashes unescaped,
/// dates as `WholeSecondDates` writes them). Foundation's encoder was a quarter of the server's
/// work for `GET /api/v1/books` (issue 20). `BookJSONTests` hold the two to the same bytes over
/// every field, absent and present, and every kind of character.
public enum BookJSON {
    /// The page's JSON.
    public static func page(_ page: Components.Schemas.BookPage) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + page.value2.items.count * 512)
        out += #"{"items":["#.utf8
        for (index, book) in page.value2.items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.book(book, into: &out)
        }
        out += #"],"limit":"#.utf8
        out += String(page.value1.limit).utf8
        if let next = page.value1.nextOffset {
            out += #","nextOffset":"#.utf8
            out += String(next).utf8
        }
        out += #","offset":"#.utf8
        out += String(page.value1.offset).utf8
        out += #","total":"#.utf8
        out += String(page.value1.total).utf8
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// One book's JSON, as `GET /api/v1/books/{id}` answers it.
    public static func book(_ book: Components.Schemas.Book) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        Self.book(book, into: &out)
        return out
    }

    /// One book's object, its keys in the order `.sortedKeys` gives them.
    static func book(_ b: Components.Schemas.Book, into out: inout [UInt8]) {
        out += #"{"addedAt":"#.utf8
        date(b.addedAt, into: &out)
        out += #","authors":"#.utf8
        strings(b.authors, into: &out)
        out += #","available":"#.utf8
        out += String(b.available).utf8
        out += #","categories":"#.utf8
        strings(b.categories, into: &out)
        out += #","copies":"#.utf8
        out += String(b.copies).utf8
        if let cover = b.coverUrl { member("coverUrl", cover, into: &out) }
        if let description = b.description { member("description", description, into: &out) }
        out += #","holdCount":"#.utf8
        out += String(b.holdCount).utf8
        member("id", b.id, into: &out)
        if let isbn = b.isbn { member("isbn", isbn, into: &out) }
        if let last = b.lastCheckout {
            out += #","lastCheckout":{"at":"#.utf8
            date(last.at, into: &out)
            if let name = last.name { member("name", name, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
        out += #","onLoan":"#.utf8
        out += String(b.onLoan).utf8
        if let publisher = b.publisher { member("publisher", publisher, into: &out) }
        member("title", b.title, into: &out)
        out += #","updatedAt":"#.utf8
        date(b.updatedAt, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `,"key":"value"`.
    private static func member(_ key: StaticString, _ value: String, into out: inout [UInt8]) {
        out += ",\"".utf8
        out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        out += #"":"#.utf8
        string(value, into: &out)
    }

    private static func strings(_ values: [String], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            string(value, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Made once: a page writes three dates a book.
    private static let dates = WholeSecondDates()

    private static func date(_ date: Date, into out: inout [UInt8]) {
        // WholeSecondDates never fails to write a date.
        string((try? dates.encode(date)) ?? "", into: &out)
    }

    /// A JSON string as Foundation's writer escapes it: quote, backslash and the control
    /// characters (`\n`, `\r`, `\t`, `\b`, `\f` by name, the others as `\u00xx`), every other
    /// byte of the UTF-8 as it is, slashes included.
    static func string(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            case 0..<0x20:
                out += #"\u00"#.utf8
                out += HexText.lowercase([byte]).utf8
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
