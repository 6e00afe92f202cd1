import Domain
import Foundation

/// What the store knows of a member's key.
public enum SubjectKey: Equatable, Sendable {
    /// The key that seals and opens their personal data.
    case active(PersonalKey)
    /// Their account was closed and the key deleted: their personal data reads as erased.
    case erased
    /// No key yet (nothing of theirs was sealed): their events, if any, are in clear.
    case none
}

/// Seals the personal fields of a payload (JSON object text, keys sorted) and opens them again.
/// The fields leave the payload and go, as one JSON object, into a box the `PersonalCipher` port
/// seals under the member's key (AES-GCM, in the Security adapter); the payload keeps a `$sealed`
/// member naming whose key and which fields:
///
///     {"$sealed":{"box":"<base64 nonce|ciphertext|tag>","fields":["displayName","email"],"subject":"<user id>"},"role":"member","user":"<user id>"}
///
/// The box is bound to the event type, the member and the field names (the cipher's authenticated
/// data), so it cannot be moved to another event. `$` starts no Swift property name, so no
/// payload has that key of its own.
enum PersonalSeal {
    static let marker = "$sealed"

    /// The sealed member of a payload: whose key and which fields.
    struct Box: Codable {
        let box: String
        let fields: [String]
        let subject: UserID

        /// The box as JSON, byte for byte as the codec's `JSONEncoder` writes it (keys sorted, slashes
        /// unescaped), written without Foundation's encoder: sealing runs in the store's writer.
        var json: String {
            var out = Array(#"{"box":"#.utf8)
            out.reserveCapacity(box.utf8.count + 96)
            JSONStrings.write(box, escapingSlashes: false, into: &out)
            out += #","fields":["#.utf8
            for (index, field) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONStrings.write(field, escapingSlashes: false, into: &out)
            }
            out += #"],"subject":"#.utf8
            JSONStrings.write(subject.description, escapingSlashes: false, into: &out)
            out.append(UInt8(ascii: "}"))
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// A payload sealed or opened can no longer be read (a box tampered with, or not opened by the key).
    struct Unopenable: Error {}

    /// `payload` with `personal`'s fields sealed with `key`; unchanged when it holds none of them.
    static func seal(
        _ payload: String, type: String, _ personal: PersonalData, key: PersonalKey, cipher: any PersonalCipher
    ) throws -> String {
        guard var members = JSONMembers(parsing: payload) else { throw Unopenable() }
        let fields = members.remove(personal.fields)
        guard !fields.members.isEmpty else { return payload }
        let names = fields.members.map(\.key)
        let combined = try cipher.seal(
            Data(fields.text.utf8), with: key, binding: context(type: type, subject: personal.subject, fields: names))
        let box = Box(box: combined.base64EncodedString(), fields: names, subject: personal.subject).json
        members.insert(marker, Substring(box).utf8)
        return members.text
    }

    /// The box of a sealed payload, with the other members; nil when the payload is not sealed.
    static func box(of payload: String) throws -> (Box, JSONMembers)? {
        // Keys are sorted and `$` sorts before every letter: a sealed payload starts with it.
        guard payload.utf8.starts(with: #"{"$sealed":"#.utf8) else { return nil }
        guard var members = JSONMembers(parsing: payload) else { throw Unopenable() }
        let taken = members.remove([marker])
        guard let text = taken[marker].flatMap({ String($0) }) else { throw Unopenable() }
        return (try EventCodec.decodeJSON(Box.self, text), members)
    }

    /// The payload as it was before sealing when `key` is the member's, or with the sealed
    /// fields `null` (erased) when their key is gone; clear payloads come back as they are. Without
    /// a cipher (a read with no keys) no key is active, so nothing is opened.
    static func open(
        _ payload: String, type: String, key: (UserID) throws -> SubjectKey, cipher: (any PersonalCipher)?
    ) throws -> (payload: String, sealed: Bool) {
        guard let (box, members) = try box(of: payload) else { return (payload, false) }
        guard case .active(let personal) = try key(box.subject) else { return (erase(members, Set(box.fields)), true) }
        guard let cipher, let data = Data(base64Encoded: box.box),
            let opened = try? cipher.open(data, with: personal, binding: context(type: type, subject: box.subject, fields: box.fields)),
            let fields = JSONMembers(parsing: String(decoding: opened, as: UTF8.self))
        else { throw Unopenable() }
        var restored = members
        for field in fields.members { restored.insert(field.key, field.value) }
        return (restored.text, true)
    }

    /// `payload` (in clear) with `fields` `null`: a member's data written before sealing, erased on reading.
    static func erase(_ payload: String, _ fields: Set<String>) throws -> String {
        guard let members = JSONMembers(parsing: payload) else { throw Unopenable() }
        return erase(members, fields.filter { members[$0] != nil })
    }

    private static func erase(_ members: JSONMembers, _ fields: Set<String>) -> String {
        var members = members
        for field in fields { members.insert(field, Substring("null").utf8) }
        return members.text
    }

    /// The authenticated data binding a box to its event type, member and fields.
    private static func context(type: String, subject: UserID, fields: [String]) -> Data {
        Data((["shelfmark personal v1", type, subject.description] + fields).joined(separator: "\n").utf8)
    }
}
