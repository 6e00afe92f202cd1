import Application
import Domain
import Foundation
import GRDB
import Synchronization
import Testing

@testable import SQLiteStore

/// A catch-up or rebuild folds each batch's writes (`ProjectionFold`): a book lent and given back,
/// a loan opened, renewed and returned are written once a batch. The read models it leaves must
/// be the ones the appends wrote event by event, whatever the batch size.
@Suite("Read models folded over a catch-up's batches")
struct CatchUpFoldTests {
    let t: TestLibrary
    init() throws { t = try TestLibrary() }

    func member(_ email: String, _ name: String, role: Role = .member) async throws -> Principal {
        let form = SignupForm(email: email, password: "Analytical-1", displayName: name, country: "GB")
        let signedIn = try await t.library.accounts.signUp.execute(form, role: role, by: role == .librarian ? .cliOperator : .anonymous)
        return try await t.library.accounts.authenticate.execute(token: try #require(signedIn.session?.token))
    }

    /// Signs in again (a session lasts less than the weeks the log spans).
    func logIn(_ email: String) async throws -> Principal {
        let signedIn = try await t.library.accounts.logIn.execute(login: email, password: "Analytical-1")
        return try await t.library.accounts.authenticate.execute(token: try #require(signedIn.session?.token))
    }

    /// A log where one book's copies, loans, holds and notices change many times, with the
    /// events that make a fold write what it holds in between (a rename, a closed account, a
    /// book withdrawn with its line, notices read).
    func busyLog() async throws {
        let catalogue = t.library.catalogue, circulation = t.library.circulation
        var books: [BookID] = []
        for n in 1...4 {
            books.append(
                try await catalogue.addBook.execute(BookDraft(title: "Book \(n)", authors: ["Author \(n)"]), copies: 1, by: .cliOperator)
                    .id)
        }
        var ada = try await member("ada@example.org", "Ada")
        var bob = try await member("bob@example.org", "Bob")
        var cyd = try await member("cyd@example.org", "Cyd")
        _ = try await member("lib@example.org", "Librarian", role: .librarian)
        func lend(_ book: BookID, to reader: Principal) async throws -> LoanID {
            t.clock.advance(by: 60)
            return try #require(try await circulation.borrow.execute([book], by: reader).first).id
        }
        for round in 0..<3 {
            let first = try await lend(books[0], to: round.isMultiple(of: 2) ? ada : bob)
            _ = try await circulation.renew.execute(first, by: round.isMultiple(of: 2) ? ada : bob)
            _ = try await circulation.giveBack.execute(first, by: round.isMultiple(of: 2) ? ada : bob)
        }
        let kept = try await lend(books[1], to: ada)
        _ = try await circulation.holds.place.execute(books[1], by: bob)
        let held = try await lend(books[2], to: bob)
        let cydsHold = try await circulation.holds.place.execute(books[2], by: cyd)
        _ = try await circulation.holds.place.execute(books[2], by: ada)
        _ = try await t.library.accounts.editProfile.execute(ProfileForm(displayName: "Ada Lovelace"), by: ada)
        _ = try await circulation.giveBack.execute(kept, by: ada)
        let walkIn = try await circulation.checkout.execute(books[3], borrowerName: "Walk-in Reader", by: .cliOperator)
        t.clock.advance(by: 20 * 24 * 3600)
        _ = try await circulation.scan.execute(by: .system)
        (ada, bob, cyd) = (try await logIn("ada@example.org"), try await logIn("bob@example.org"), try await logIn("cyd@example.org"))
        try await circulation.notices.markRead(nil, by: bob)
        _ = try await circulation.giveBack.execute(walkIn.id, by: try await logIn("lib@example.org"))
        _ = try await circulation.giveBack.execute(held, by: bob)
        _ = try await circulation.holds.cancel.execute(cydsHold.id, by: cyd)
        try await t.library.accounts.closeAccount.own(by: cyd)
        _ = try await catalogue.withdrawBooks.execute([books[2]], by: .cliOperator)
        _ = try await lend(books[0], to: bob)
        _ = try await lend(books[3], to: ada)
    }

    /// Every row of every read model, loans and notices with their rowids (their order on disk).
    func readModels() async throws -> [String: [[String]]] {
        try await t.database.pool.read { db in
            var tables: [String: [[String]]] = [:]
            for (table, key) in LibraryDatabase.readModelTables {
                let rowid = ["loans", "notices"].contains(table) ? "rowid, " : ""
                tables[table] = try Row.fetchAll(db, sql: "SELECT \(rowid)* FROM \(table) ORDER BY \(key)").map { row in
                    row.databaseValues.map(\.description)
                }
            }
            return tables
        }
    }

    /// Rebuilds every read model with batches of `batch` events; returns the statements it ran.
    func rebuild(batch: Int) async throws -> [String] {
        let statements = Mutex<[String]>([])
        let projections = t.database.projections
        try await t.database.pool.write { db in
            db.trace { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
            defer { db.trace(options: [], nil) }
            _ = try projections.rebuild(db, batch: batch) { _, _ in }
        }
        return statements.withLock { $0 }
    }

    @Test(arguments: [1, 2, 3, 5, 8, 10_000])
    func aRebuildInBatchesLeavesTheReadModelsAsTheAppendsWroteThem(batch: Int) async throws {
        // Given a busy log, its read models written event by event by the appends
        try await busyLog()
        let live = try await readModels()
        #expect(live["loans"]?.count == 8 && live["holds"]?.count == 3 && live["notices"]?.isEmpty == false, "\(live)")

        // When they are rebuilt from the log in batches of this size
        _ = try await rebuild(batch: batch)

        // Then every row of every read model is the same, in the same order
        let rebuilt = try await readModels()
        for (table, rows) in live { #expect(rebuilt[table] == rows, "\(table)") }
    }

    @Test(arguments: [1, 3, 10_000])
    func aReadModelBehindTheOthersCatchesUpAlone(batch: Int) async throws {
        // Given a busy log, and the loans read model emptied and put back to position 0 while the
        // catalogue, which reads it, stays at the head
        try await busyLog()
        let live = try await readModels()
        let projections = t.database.projections
        let loans = try #require(projections.all.first { $0.name == "loans" })
        try await t.database.pool.write { db in
            try loans.reset(db)
            try projections.store(0, for: loans, db)
        }

        // When the projections catch up in batches of this size
        try await t.database.pool.write { db in try projections.catchUp(db, batch: batch) }

        // Then the loans and notices are the appends' again, and nothing else moved
        #expect(try await readModels() == live)
    }

    @Test func aBookLentAndGivenBackManyTimesInOneBatchIsWrittenOnce() async throws {
        // Given one book lent and given back five times, and its five loans
        let book = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["Frank"]), copies: 1, by: .cliOperator)
        let ada = try await member("ada@example.org", "Ada")
        for _ in 0..<5 {
            let loan = try #require(try await t.library.circulation.borrow.execute([book.id], by: ada).first)
            _ = try await t.library.circulation.giveBack.execute(loan.id, by: ada)
        }
        let live = try await readModels()

        // When the read models are rebuilt in one batch
        let statements = try await rebuild(batch: 10_000)

        // Then the book's row is updated once, each loan is inserted once and never updated, and
        // the rows are the appends'
        #expect(statements.filter { $0.hasPrefix("UPDATE catalogue_books") }.count == 1, "\(statements)")
        #expect(statements.filter { $0.hasPrefix("INSERT INTO loans") }.count == 5)
        #expect(statements.filter { $0.hasPrefix("UPDATE loans") }.isEmpty)
        #expect(try await readModels() == live)
    }
}
