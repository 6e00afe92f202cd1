import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// How a failed command is told: the problem the API would answer for the same error, as one
/// line (`Error: …`) or, under `--json`, as the problem document on standard error; the exit
/// status says which kind of failure it was (`ExitStatus`).
enum FailureReport {
    /// Tells `error` on standard error and returns the status to exit with.
    static func report(_ error: any Error, json: Bool, arguments: [String] = []) -> ExitStatus {
        let (problem, status) = classify(error)
        if json, let document = try? ContractJSON.encode(problem.schema) {
            write(document)
        } else {
            // A failure on a library this run created says so in the same line: the path may be a typo.
            let detail = actingAsRefusal(error) ?? withOptionNames(error, typed: arguments) ?? problem.detail ?? problem.title
            write(t("cli.error", detail + (CommandLineNotes.take().map { " (\($0))" } ?? "")))
        }
        return status
    }

    /// A librarian's operation refused to the member the CLI acts as, said with who that is and how
    /// to switch; nil for any other error. Only the plain line says it: `--json` prints the problem
    /// document exactly as the API answers it.
    static func actingAsRefusal(_ error: any Error) -> String? {
        guard (error as? Forbidden)?.reason == .librarianOnly, case .member(let member, _)? = SavedSession.actingAs.withLock({ $0 })
        else { return nil }
        return catalogue.text(.librarianOnlyOnCommandLine(actingAs: member))
    }

    /// Field errors said with the command line's names for the fields (`--author is required`, not
    /// the API's `authors`) where the command was given that option (`typed`, its arguments: a
    /// search's title is a word, not `--title`); nil for any other error. `--json` keeps the API's
    /// names, as its problem document is the API's.
    static func withOptionNames(_ error: any Error, typed arguments: [String]) -> String? {
        guard let convertible = error as? any MessageConvertible, case .invalidInput(let errors) = convertible.message else { return nil }
        let typed = Set(arguments.map { String($0.prefix { $0 != "=" }) })
        return catalogue.separated(errors.map { said(OptionNames.field($0, typed: typed)) })
    }

    /// A field error in the command line's words: the catalogue's advice to list a walk-in's loans
    /// by `borrower` names the API's parameter, where the command line has `--borrower`; a search
    /// needs a title or one of its options, not one of the API's `title`, `author` or `q`.
    private static func said(_ error: FieldError) -> String {
        if error.field == "--member", case .notAMemberReference(let typed) = error.problem {
            return t("cli.problem.notAMemberReference", error.field, String(typed.prefix(100)))
        }
        if case .atLeastOneOf(let fields) = error.problem, let named = OptionNames.searchWords(fields) {
            return catalogue.text(FieldProblem.atLeastOneOf(named))
        }
        return catalogue.text(error)
    }

    /// The problem an error stands for, worded by the catalogue, and the status to exit with.
    static func classify(_ error: any Error) -> (Problem, ExitStatus) {
        if let error = error as? ConfigurationError {
            let problem = Problem(
                status: 500, slug: "configuration", title: t("cli.problem.configuration"), detail: catalogue.text(error.message))
            return (problem, .unusableSetting)
        }
        if let problem = Problem.of(error, in: catalogue) { return (problem, ExitStatus(httpStatus: problem.status)) }
        if ShelfmarkCommand.exitCode(for: error) == .validationFailure {
            // ArgumentParser's sentence in the run's language, as the plain line says it (an outside walk).
            let detail = ShelfmarkCommand.message(for: error).split(separator: "\n").first.map { parserSaid(String($0)) }
            return (Problem(status: 400, slug: "usage", title: t("cli.problem.usage"), detail: detail), .usage)
        }
        return (Problem(status: 500, slug: "internal", title: t("cli.problem.internal"), detail: internalDetail(error)), .internalError)
    }

    /// What went wrong, said without a library's words: the catalogue's when the error has a
    /// message; the one line the adapters' own errors are written as (an anchor file that cannot
    /// be written); else a bug, whose inside LOG_LEVEL=debug shows.
    private static func internalDetail(_ error: any Error) -> String {
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"]?.lowercased()
        if level == "debug" || level == "trace" { return t("cli.failed", String(reflecting: error)) }
        if let text = catalogue.text(of: error) { return text }
        if let error = error as? any CustomStringConvertible, !(error is any LocalizedError), !(error is any CustomNSError) {
            return error.description
        }
        return t("cli.failedUnexpectedly")
    }

    /// ArgumentParser's usage error (`Error: …`, `Usage: …`, `See '…' for more information.`) framed
    /// in the run's language; its own sentence (an unknown option, a missing value) stays its English.
    static func usageText(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("Error: ") { return t("cli.error", parserSaid(String(line.dropFirst("Error: ".count)))) }
            if line.hasPrefix("Help:  ") { return t("cli.parse.help", String(line.dropFirst("Help:  ".count))) }
            if line.hasPrefix("Usage: ") { return t("cli.usage", subcommandPlaceholder(line.dropFirst("Usage: ".count))) }
            if let see = line.wholeMatch(of: #/  See '(.+)' for more information\./#) { return "  " + t("cli.seeHelp", String(see.1)) }
            return String(line)
        }.joined(separator: "\n")
    }

    /// A help text with ArgumentParser's own words in it (its headings, its `--help` and `--version`
    /// lines, its defaults and its pointer to detailed help) in the run's language: it writes them
    /// in English only, and a French help read half in English (found by an outside walk).
    static func helpText(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { part in
            var line = String(part)
            if line.hasPrefix("OVERVIEW: ") { return t("cli.help.overview", String(line.dropFirst("OVERVIEW: ".count))) }
            if line.hasPrefix("USAGE: ") { return t("cli.help.usage", subcommandPlaceholder(line.dropFirst("USAGE: ".count))) }
            switch line {
            case "OPTIONS:": return t("cli.help.options")
            case "ARGUMENTS:": return t("cli.help.arguments")
            case "SUBCOMMANDS:": return t("cli.help.subcommands")
            default: break
            }
            if let group = line.wholeMatch(of: #/(\S.*) SUBCOMMANDS:/#) { return t("cli.help.groupSubcommands", String(group.1)) }
            if let see = line.wholeMatch(of: #/(\s*)See '(.+) <subcommand>' for detailed help\./#) {
                return String(see.1) + t("cli.help.detailed", String(see.2))
            }
            if line.hasSuffix(" Show the version.") { line = String(line.dropLast("Show the version.".count)) + t("cli.help.version") }
            if line.hasSuffix(" Show help information.") {
                line = String(line.dropLast("Show help information.".count)) + t("cli.help.help")
            }
            return line
        }.joined(separator: "\n").replacing("(default:", with: t("cli.help.default"))
    }

    /// A usage line with ArgumentParser's `<subcommand>` in the run's language.
    private static func subcommandPlaceholder(_ usage: Substring) -> String {
        String(usage).replacing("<subcommand>", with: t("cli.help.subcommandPlaceholder"))
    }

    /// ArgumentParser's own sentences for the slips a command line meets (an unknown option, a
    /// value that is not a number, an argument missing or too many) in the run's language; any
    /// other is left as it says it.
    static func parserSaid(_ text: String) -> String {
        if let said = text.wholeMatch(of: #/Unknown option '([^']+)'\. Did you mean '([^']+)'\?/#) {
            return t("cli.parse.unknownOptionDidYouMean", String(said.1), String(said.2))
        }
        if let said = text.wholeMatch(of: #/Unknown option '([^']+)'/#) { return t("cli.parse.unknownOption", String(said.1)) }
        if let said = text.wholeMatch(of: #/Unexpected argument '(.+)'/#) { return t("cli.parse.unexpectedArgument", String(said.1)) }
        if let said = text.wholeMatch(of: #/Missing expected argument '(.+)'/#) { return t("cli.parse.missingArgument", String(said.1)) }
        if let said = text.wholeMatch(of: #/Missing value for '(.+)'/#) { return t("cli.parse.missingValue", String(said.1)) }
        if let said = text.wholeMatch(of: #/The value '(.*)' is invalid for '([^']+)'/#) {
            return t("cli.parse.invalidValue", String(said.1), String(said.2))
        }
        return text
    }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// The command line's options for the fields the use cases name as the API does.
enum OptionNames {
    /// The option of each field the commands take as one (a member's name is `--name` at signup,
    /// a walk-in's at checkout).
    static let options = [
        "title": "--title", "authors": "--author", "isbn": "--isbn", "publisher": "--publisher", "categories": "--category",
        "coverUrl": "--cover-url", "description": "--description", "copies": "--copies", "borrowerName": "--name",
        "displayName": "--name", "email": "--email", "country": "--country", "language": "--language", "username": "--username",
        "card": "--card", "q": "--query", "author": "--author", "code": "--code", "limit": "--limit", "offset": "--offset",
        "member": "--member", "borrower": "--borrower", "into": "--into", "to": "--to",
    ]

    /// The passwords, which the command line reads from its standard input (`PasswordPrompt`), not
    /// from options: their text keys, said as typed at a prompt or as read from a pipe.
    static let passwords = [
        "password": "cli.field.password", "newPassword": "cli.field.newPassword",
        "currentPassword": "cli.field.currentPassword",
    ]

    /// A search's words as `shelfmark search` takes them (a title, `--author`, `--query`), or nil
    /// for fields that are not a search's.
    static func searchWords(_ fields: [String]) -> [String]? {
        let words = ["title": t("cli.field.searchTitle"), "author": "--author", "q": "--query"]
        let named = fields.compactMap { words[$0] }
        return named.count == fields.count ? named : nil
    }

    /// `error` with its field named by its option (`authors[1]` is the second `--author`) when that
    /// option was typed, a password as the command reads it, or as it was.
    static func field(_ error: FieldError, typed: Set<String>) -> FieldError {
        if let key = passwords[error.field] {
            return FieldError(t(key + (PasswordPrompt.onTerminal ? ".typed" : ".piped")), error.problem)
        }
        let name = String(error.field.prefix { $0 != "[" })
        guard let option = options[name], typed.contains(option) else { return error }
        guard let index = Int(error.field.dropFirst(name.count).dropFirst().dropLast()) else {
            return error.field == name ? FieldError(option, error.problem) : error
        }
        return FieldError(t("cli.field.nth", option, String(index + 1)), error.problem)
    }
}
