import Foundation

/// The statuses `shelfmark` exits with, one per kind of outcome, so a script can tell a refusal
/// from a typo from an outage. `shelfmark --help` and README list them from here.
enum ExitStatus: Int32, CaseIterable {
    case ok = 0
    /// The library's rules refused (not logged in, not allowed, a conflict, too many attempts),
    /// or `audit verify` found the log altered.
    case refused = 1
    /// A setting (environment variable or option) cannot be used; nothing was started or changed.
    case unusableSetting = 2
    /// What the command names does not exist.
    case notFound = 3
    /// An outside service or the database is unavailable or busy; trying later may work.
    case unavailable = 4
    /// The command line or its input is not valid (sysexits' EX_USAGE, as ArgumentParser's own).
    case usage = 64
    /// Shelfmark failed (sysexits' EX_SOFTWARE).
    case internalError = 70

    /// The status for a problem the API would answer with `status`.
    init(httpStatus status: Int) {
        switch status {
        case 200..<300: self = .ok
        case 404, 410: self = .notFound
        case 400, 405, 413, 414, 415, 422: self = .usage
        case 400..<500: self = .refused
        case 502, 503, 504: self = .unavailable
        default: self = .internalError
        }
    }

    /// One line of the help's list.
    var meaning: String {
        switch self {
        case .ok: t("cli.exit.ok")
        case .refused: t("cli.exit.refused")
        case .unusableSetting: t("cli.exit.unusableSetting")
        case .notFound: t("cli.exit.notFound")
        case .unavailable: t("cli.exit.unavailable")
        case .usage: t("cli.exit.usage")
        case .internalError: t("cli.exit.internalError")
        }
    }

    /// The list for `shelfmark --help`.
    static var help: String {
        allCases.map { "  \(String($0.rawValue).padding(toLength: 3, withPad: " ", startingAt: 0)) \($0.meaning)" }
            .joined(separator: "\n")
    }
}
