#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's open-file limit, and how many connections fit under it.
///
/// Running out of file descriptors is not an error a Swift server on Linux can recover from:
/// libdispatch's worker-pool monitor opens `/proc/<tid>/stat` and traps when that open fails,
/// so one `EMFILE` at the wrong moment kills the process. The server therefore raises its soft
/// limit as far as it may and never accepts more connections than leave room for the database,
/// the outbound HTTP client and the runtime.
public enum OpenFiles {
    /// Descriptors kept free for everything that is not a client connection.
    static let reserve = 256

    /// The soft limit on open files (`RLIMIT_NOFILE`), or nil when it cannot be read.
    public static func softLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return nil }
        return limit.rlim_cur == infinity ? Int.max : Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to the hard one (at most `cap`), as servers do at start-up; returns
    /// the soft limit in force afterwards.
    @discardableResult
    public static func raiseSoftLimit(cap: Int = 65_536) -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return nil }
        let hard = limit.rlim_max == infinity ? rlim_t(cap) : min(limit.rlim_max, rlim_t(cap))
        if limit.rlim_cur != infinity, limit.rlim_cur < hard {
            limit.rlim_cur = hard
            _ = setrlimit(resourceKind, &limit)
        }
        return softLimit()
    }

    /// How many client connections to accept at once under a soft limit of `limit` descriptors.
    public static func connectionBudget(limit: Int?) -> Int {
        guard let limit else { return 1_000 }
        return max(16, limit - min(reserve, limit / 2))
    }

    /// `RLIM_INFINITY`, which Swift does not import.
    private static let infinity = rlim_t.max

    #if canImport(Glibc)
        private static let resourceKind = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resourceKind = RLIMIT_NOFILE
    #endif
}
