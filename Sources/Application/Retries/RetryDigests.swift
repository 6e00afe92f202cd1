import Domain
import Foundation

/// A request's keyed digests (`ClaimNames.keyedDigest`, the library's secret): the key scoped to
/// the caller, the whole request's fingerprint, and the key its answer is sealed with, which
/// only the request itself gives (a signup's answer holds a session token, its body a password).
struct RetryDigests {
    let key: String
    let fingerprint: String
    private let answerKey: PersonalKey
    private let cipher: any PersonalCipher

    init(_ names: ClaimNames, scope: String, _ request: RetryableRequest) {
        let head = Data("\(scope)\n\(request.key)\n".utf8)
        let whole = head + Data("\(request.method)\n\(request.route)\n".utf8) + request.body
        key = Self.hex(names.keyedDigest("retry key", head))
        fingerprint = Self.hex(names.keyedDigest("retry request", whole))
        answerKey = PersonalKey(bytes: names.keyedDigest("retry answer", whole))!
        cipher = names.cipher
    }

    /// The answer sealed, bound to the key's digest.
    func seal(_ answer: RequestAnswer) throws -> Data {
        try cipher.seal(try JSONEncoder().encode(answer), with: answerKey, binding: Data(key.utf8))
    }

    /// What `seal` sealed; throws for another request's answer.
    func open(_ sealed: Data) throws -> RequestAnswer {
        try JSONDecoder().decode(RequestAnswer.self, from: try cipher.open(sealed, with: answerKey, binding: Data(key.utf8)))
    }

    private static func hex(_ bytes: [UInt8]) -> String { HexText.lowercase(bytes) }
}
