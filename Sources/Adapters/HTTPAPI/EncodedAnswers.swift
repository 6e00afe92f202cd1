import Application
import Domain
import Synchronization

/// The JSON of the answers written last, kept by what they showed: an answer to the same request
/// (`Key`: a book, a page of the list) in the same reader's language (an erased borrower is worded
/// in it) whose value is equal to the one encoded before gets the same bytes. The use case still
/// reads (or recalls) the value and redacts it for the caller, so what is compared is exactly what
/// would be encoded, and nothing can be stale; encoding was a sixth of the list's CPU
/// (bench/PROFILE.md, changes 23 and 37). At most `capacity` bytes of JSON are kept: when a new
/// answer would pass it, everything kept is let go and keeping starts again.
final class EncodedAnswers<Key: Hashable & Sendable, Value: Equatable & Sendable>: Sendable {
    private struct Slot: Hashable {
        let key: Key
        let language: Language
    }

    private struct Kept {
        let value: Value
        let body: [UInt8]
    }

    private struct State {
        var kept: [Slot: Kept] = [:]
        var bytes = 0
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 4 << 20) { self.capacity = capacity }

    /// The JSON of `value`, the answer to `key` in `language`: the kept bytes when the value kept
    /// for that key is equal, else `encode`d now (and kept in its place).
    func body(_ value: Value, for key: Key, in language: Language, encode: () -> [UInt8]) -> [UInt8] {
        let slot = Slot(key: key, language: language)
        if let kept = state.withLock({ $0.kept[slot] }), kept.value == value { return kept.body }
        let body = encode()
        guard body.count <= capacity / 4 else { return body }
        state.withLock { state in
            if let old = state.kept.removeValue(forKey: slot) { state.bytes -= old.body.count }
            if state.bytes + body.count > capacity { state = State() }
            state.kept[slot] = Kept(value: value, body: body)
            state.bytes += body.count
        }
        return body
    }
}
