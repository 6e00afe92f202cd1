import Domain

/// The walk-in limit's consistency boundary, one stream per name (`WalkInAggregate`): a walk-in
/// checkout and its return append there with the book's and the loan's events.
extension CirculationDependencies {
    /// Lends `loan` under its name within the walk-in limit, one copy of a book at a time, or
    /// refuses naming the name and the limit, or the book (`title`). With `answeringRepeat`, a
    /// name that has the book already is answered with that loan, and nothing is lent: a retried
    /// checkout whose first attempt committed after the loans read model was read.
    func lendWalkIn(_ loan: WalkInLoan, title: String, answeringRepeat: Bool, _ transaction: inout Transaction) async throws -> LoanID? {
        let (loaded, state) = try await walkInLoans(of: loan.borrowerName, &transaction)
        if answeringRepeat, let open = state.active.values.first(where: { $0.book == loan.book }) { return open.loan }
        do {
            transaction.record(loaded, try WalkInAggregate.decide(.lend(loan, max: policy.maxWalkInLoans), state))
        } catch .alreadyHasBook(let name, let book) {
            throw LoanRefused(.alreadyHasBook(name: name, book: book), titles: [book: title])
        } catch {
            throw LoanRefused(error)
        }
        return nil
    }

    /// Ends a walk-in loan in its name's stream. A stream never written has nothing to end, and is
    /// expected still unwritten at the append: a first checkout under the name recording this loan
    /// as active meanwhile makes the return run again, and end it there.
    func endWalkIn(_ loan: LoanOpened, _ transaction: inout Transaction) async throws {
        // A walk-in borrower's name is nobody's personal data: it is never sealed, never erased.
        let loaded = try await transaction.load(WalkInAggregate.self, .walkIn(loan.borrowerName.known ?? ""))
        guard loaded.version > 0 else { return transaction.expectUnchanged(loaded) }
        try transaction.decide(.end(loan.loan), on: loaded) { LoanRefused($0) }
    }

    /// A name's stream and its state. A stream never written starts from the walk-in loans the
    /// loans read model has active under the name (lent before these streams were kept), each
    /// confirmed by its own stream and expected unchanged, so a return racing this first
    /// checkout is either seen or makes it run again.
    private func walkInLoans(of name: String, _ transaction: inout Transaction) async throws -> (Loaded<WalkInAggregate>, WalkInState) {
        let loaded = try await transaction.load(WalkInAggregate.self, .walkIn(name))
        guard loaded.version == 0 else { return (loaded, loaded.state) }
        var earlier: [WalkInLoan] = []
        for summary in try await loans.loans(LoanFilter(walkIn: name)) {
            let stream = try await transaction.load(LoanAggregate.self, .loan(summary.id))
            guard case .lent(let record) = stream.state else { continue }
            transaction.expectUnchanged(stream)
            earlier.append(WalkInLoan(borrowerName: record.opened.borrowerName.known ?? name, loan: summary.id, book: record.opened.book))
        }
        return (loaded, .lentBefore(earlier))
    }
}
