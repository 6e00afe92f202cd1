/// The top-level members of a JSON object's text, each as its key and the raw text of its value,
/// so fields can be taken out and put back without re-encoding the others: a payload opened
/// again is byte for byte the payload that was sealed.
struct JSONMembers {
    typealias Member = (key: String, value: Substring.UTF8View)

    private(set) var members: [Member]

    init(_ members: [Member]) { self.members = members }

    /// The members of `text`, or nil when it is not a JSON object with plain keys (no escapes).
    init?(parsing text: String) {
        let bytes = Substring(text).utf8
        var index = bytes.startIndex
        var members: [Member] = []
        func skipSpace() {
            while index < bytes.endIndex, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index = bytes.index(after: index) }
        }
        skipSpace()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "{") else { return nil }
        index = bytes.index(after: index)
        skipSpace()
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "}") { self.members = []; return }
        while true {
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\""), let keyEnd = Self.endOfString(bytes, at: index) else {
                return nil
            }
            let rawKey = bytes[bytes.index(after: index)..<bytes.index(before: keyEnd)]
            guard !rawKey.contains(UInt8(ascii: "\\")), let key = String(rawKey) else { return nil }
            index = keyEnd
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { return nil }
            index = bytes.index(after: index)
            skipSpace()
            let start = index
            guard let end = Self.endOfValue(bytes, at: index) else { return nil }
            members.append((key, bytes[start..<end]))
            index = end
            skipSpace()
            guard index < bytes.endIndex else { return nil }
            if bytes[index] == UInt8(ascii: "}") { break }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index = bytes.index(after: index)
        }
        self.members = members
    }

    /// The value of `key`, if present.
    subscript(key: String) -> Substring.UTF8View? { members.first { $0.key == key }?.value }

    /// Takes out the members whose keys are in `keys`, in order, and returns them.
    mutating func remove(_ keys: Set<String>) -> JSONMembers {
        let taken = members.filter { keys.contains($0.key) }
        members.removeAll { keys.contains($0.key) }
        return JSONMembers(taken)
    }

    /// Puts `member` in its place among keys in byte order (as the codec's encoder sorts them),
    /// replacing a member of the same key.
    mutating func insert(_ key: String, _ value: Substring.UTF8View) {
        members.removeAll { $0.key == key }
        let place = members.firstIndex { !$0.key.utf8.lexicographicallyPrecedes(key.utf8) } ?? members.endIndex
        members.insert((key, value), at: place)
    }

    /// The object's text: compact, members in their order.
    var text: String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes += member.key.utf8
            bytes += "\":".utf8
            bytes += member.value
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The index just past the string starting at `start` (a quote), or nil when it never ends.
    private static func endOfString(_ bytes: Substring.UTF8View, at start: Substring.UTF8View.Index) -> Substring.UTF8View.Index? {
        var index = bytes.index(after: start)
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index = bytes.index(after: index)
                guard index < bytes.endIndex else { return nil }
            case UInt8(ascii: "\""): return bytes.index(after: index)
            default: break
            }
            index = bytes.index(after: index)
        }
        return nil
    }

    /// The index just past the value starting at `start`: a string, an object or array (nesting
    /// counted outside strings), or a literal up to the next delimiter.
    private static func endOfValue(_ bytes: Substring.UTF8View, at start: Substring.UTF8View.Index) -> Substring.UTF8View.Index? {
        guard start < bytes.endIndex else { return nil }
        var index = start
        switch bytes[start] {
        case UInt8(ascii: "\""): return endOfString(bytes, at: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.endIndex {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let end = endOfString(bytes, at: index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return bytes.index(after: index) }
                default: break
                }
                index = bytes.index(after: index)
            }
            return nil
        default:
            while index < bytes.endIndex,
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[index])
            {
                index = bytes.index(after: index)
            }
            return index == start ? nil : index
        }
    }
}
