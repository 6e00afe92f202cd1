import Application

/// A stream name a store cannot keep as given (it holds a NUL character, which SQLite's text
/// binding stops at and PostgreSQL's text refuses); nothing was written.
public struct UnstorableStreamName: Error, Equatable, Sendable, CustomStringConvertible {
    public let stream: StreamName
    public init(stream: StreamName) { self.stream = stream }
    public var description: String { "the stream name \(stream.rawValue.debugDescription) holds a NUL character" }
}
