/// Why a request from an old client app (under an app key) cannot be read, said in that app's
/// own terms: its routes, its book numbers, its bodies and its date form.
public enum AppRequestProblem: Equatable, Sendable {
    /// No book has (or ever had) this number; nil when the path's number is no number at all.
    case noBookNumbered(Int?)
    /// Nothing answers this path under the key (`path` is what follows the key, never the key).
    case noSuchRoute(path: String)
    /// A form body names a field twice.
    case formNamesTwice(String)
    /// A form body is not url-encoded UTF-8 (a `%` without two hex digits after it, or bad bytes).
    case formMalformed
    /// The body is neither JSON nor a form.
    case neitherJSONNorForm
    /// `lastCheckedOut` is not written `yyyy-MM-dd HH:mm:ss`.
    case checkoutTimeUnreadable
}

/// A request from an old client app refused before any use case is asked.
public struct AppRequestRefused: MessageConvertible, Equatable, Sendable {
    public let problem: AppRequestProblem
    public init(_ problem: AppRequestProblem) { self.problem = problem }
    public var message: Message { .appRequest(problem) }
}
