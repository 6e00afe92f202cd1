import Domain

/// Withdraws one or several books, all or none: an unknown book or a refusal withdraws nothing.
/// A withdrawn book releases its ISBN and cancels its holds, telling each member.
public struct WithdrawBooks: Sendable {
    let runner: CommandRunner
    let catalogue: any Catalogue

    /// Returns the number of books withdrawn now (a book withdrawn before counts as none). A book
    /// in `ifMatch` is withdrawn only at one of those versions (`ResourceVersions.book`), else
    /// nothing is, and the refusal is `StaleVersion`.
    @discardableResult
    public func execute(_ ids: [BookID], ifMatch: [BookID: Set<ResourceVersion>] = [:], by principal: Principal) async throws -> Int {
        try Authorization.require(.withdrawBooks, by: principal)
        var seen: Set<BookID> = []
        let unique = ids.filter { seen.insert($0).inserted }
        return try await runner.transact(by: principal) { transaction in
            var withdrawn = 0
            var claims = ISBNClaims(runner: runner, catalogue: catalogue)
            for id in unique {
                let book = try await transaction.load(BookAggregate.self, .book(id))
                if case .absent = book.state { throw NotFound(.book, id.description) }
                var queue: Loaded<HoldQueueAggregate>?
                if let asked = ifMatch[id], case .inCatalogue = book.state {
                    let loaded = try await transaction.load(HoldQueueAggregate.self, .holds(id))
                    try ResourceVersion.require(asked, current: ResourceVersion([book.version, loaded.version]))
                    queue = loaded
                }
                let events = try transaction.decide(.withdraw, on: book) { BookRefused(id, $0, in: book.state) }
                try await claims.follow(id, from: book.state, events)
                try await transaction.followHolds(id, from: book.state, events, now: runner.clock.now(), policy: LoanPolicy())
                if let queue { transaction.expectUnchangedUnlessRecorded(queue) }
                if !events.isEmpty { withdrawn += 1 }
            }
            claims.record(in: &transaction)
            return withdrawn
        }
    }
}

/// What clearing the catalogue did.
public struct ClearReport: Equatable, Sendable {
    public let withdrawn: [BookID]
    /// Books that stay, with the reason (such as copies on loan).
    public let kept: [BookRefused]
}

/// Withdraws every book that can be withdrawn, in one atomic step, and reports the others; the
/// withdrawn release their ISBNs and cancel their holds.
public struct ClearCatalogue: Sendable {
    let runner: CommandRunner
    let catalogue: any Catalogue

    public func execute(by principal: Principal) async throws -> ClearReport {
        try Authorization.require(.clearCatalogue, by: principal)
        return try await runner.transact(by: principal) { transaction in
            var withdrawn: [BookID] = []
            var kept: [BookRefused] = []
            var claims = ISBNClaims(runner: runner, catalogue: catalogue)
            for id in try await catalogue.allIDs() {
                let book = try await transaction.load(BookAggregate.self, .book(id))
                do {
                    let events = try transaction.decide(.withdraw, on: book) { BookRefused(id, $0, in: book.state) }
                    try await claims.follow(id, from: book.state, events)
                    try await transaction.followHolds(id, from: book.state, events, now: runner.clock.now(), policy: LoanPolicy())
                    if !events.isEmpty { withdrawn.append(id) }
                } catch let refused as BookRefused {
                    kept.append(refused)
                }
            }
            claims.record(in: &transaction)
            return ClearReport(withdrawn: withdrawn, kept: kept)
        }
    }
}
