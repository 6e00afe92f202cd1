import Synchronization

/// The connections being served, in all and from each client address, and the refusals not yet
/// logged: one client address can never hold every slot, and an operator sees who was turned away.
final class ConnectionCount: Sendable {
    /// Whether a new connection is served, and why not.
    enum Admission: Equatable {
        case admitted
        /// The server serves its most connections.
        case serverFull
        /// This client address holds its most connections.
        case addressFull
    }

    /// How many refusals of one address to log: the first, then at most one line a minute saying how many since.
    static let refusalLogInterval: Duration = .seconds(60)

    private struct State {
        var total = 0
        var byAddress: [String: Int] = [:]
        /// For each address refused lately: when its last refusal was logged, and the refusals since.
        var refusals: [String: (logged: ContinuousClock.Instant, since: Int)] = [:]
    }

    private let state = Mutex(State())
    private let limits: BitBooksLimits

    init(limits: BitBooksLimits) { self.limits = limits }

    /// Counts one more connection from `address` when both limits allow it.
    func admit(from address: String) -> Admission {
        state.withLock { state in
            guard state.total < limits.maxConnections else { return .serverFull }
            guard state.byAddress[address, default: 0] < limits.maxConnectionsPerAddress else { return .addressFull }
            state.total += 1
            state.byAddress[address, default: 0] += 1
            return .admitted
        }
    }

    /// A connection from `address` closed.
    func release(from address: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.byAddress[address, default: 1] - 1
            state.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// Records a refusal of `address`; the number of its refusals to log now (this one included),
    /// or nil while its last line is less than `refusalLogInterval` old.
    func refused(_ address: String, at now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { state in
            if state.refusals.count > 4_096 {  // a crowd of addresses: forget the quiet ones
                state.refusals = state.refusals.filter { now - $0.value.logged < Self.refusalLogInterval }
            }
            guard let last = state.refusals[address], now - last.logged < Self.refusalLogInterval else {
                let count = (state.refusals[address]?.since ?? 0) + 1
                state.refusals[address] = (now, 0)
                return count
            }
            state.refusals[address] = (last.logged, last.since + 1)
            return nil
        }
    }
}
