import Domain

/// A resource's version as clients see it (an HTTP entity tag): the versions of the streams it
/// is made of, written `7.2` for a book at version 7 whose waiting list is at version 2. Any event
/// on one of those streams changes it.
public struct ResourceVersion: Hashable, Sendable, CustomStringConvertible {
    public let parts: [Int64]

    public init(_ parts: [Int64]) { self.parts = parts }

    /// Reads `7` or `7.2`: one to four whole numbers of at most 18 digits, written as the tag
    /// writes them (no leading zero: an entity tag is compared as text, so `"07.2"` is another
    /// tag); nil for anything else.
    public init?(_ text: Substring) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(pieces.count) else { return nil }
        var parts: [Int64] = []
        for piece in pieces {
            guard (1...18).contains(piece.utf8.count), piece.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                piece.utf8.count == 1 || piece.utf8.first != UInt8(ascii: "0"), let part = Int64(piece)
            else { return nil }
            parts.append(part)
        }
        self.parts = parts
    }

    public var description: String { parts.map(String.init).joined(separator: ".") }

    /// Nothing when no version was asked for or the current one is among those asked for; else
    /// the refusal naming the current version.
    static func require(_ asked: Set<ResourceVersion>?, current: ResourceVersion) throws(StaleVersion) {
        if let asked, !asked.contains(current) { throw StaleVersion(current: current) }
    }
}

/// The resource changed since the client read it: the version it expected is not the current one.
public struct StaleVersion: MessageConvertible, Equatable, Sendable {
    /// The version now.
    public let current: ResourceVersion
    public var message: Message { .staleVersion(current: current.description) }
}

/// The versions of books, loans and accounts, read through the commands' own state cache: what
/// a client sends back in `If-Match` is compared with exactly these.
public struct ResourceVersions: Sendable {
    let runner: CommandRunner

    public init(runner: CommandRunner) { self.runner = runner }

    /// A book's: its stream's version and its waiting list's (the book's answer shows both).
    public func book(_ id: BookID) async throws -> ResourceVersion {
        let (book, queue) = try await runner.load(BookAggregate.self, .book(id), HoldQueueAggregate.self, .holds(id))
        return ResourceVersion([book.version, queue.version])
    }

    /// A loan's: its stream's version.
    public func loan(_ id: LoanID) async throws -> ResourceVersion {
        ResourceVersion([try await runner.load(LoanAggregate.self, .loan(id)).version])
    }

    /// An account's: its stream's version.
    public func account(_ id: UserID) async throws -> ResourceVersion {
        ResourceVersion([try await runner.load(UserAggregate.self, .user(id)).version])
    }
}
