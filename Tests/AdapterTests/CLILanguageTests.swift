import Domain
import Foundation
import Testing

@testable import CLI

/// The command line in English and French: `--lang`, else `LC_ALL`, `LC_MESSAGES`, `LANG`, else
/// English; help, refusals, tables and their dates in the language chosen; JSON never changes.
@Suite("CLI: language")
struct CLILanguageTests {
    let db = TemporaryDatabase()

    static let french = ["LANG": "fr_FR.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "TZ": "UTC"]
    static let english = ["LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "TZ": "UTC"]

    func run(_ arguments: String..., environment: [String: String] = Self.french, stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin, environment: environment)
    }

    func addBook(_ title: String = "Dune") async throws -> String {
        let added = try await run("--json", "book", "add", "--title", title, "--author", "Frank Herbert")
        let object = try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any]
        return try #require(object?["id"] as? String, "\(added.stderr)")
    }

    @Test func helpIsInFrenchUnderAFrenchLocale() async throws {
        let add = try await run("book", "add", "--help")
        #expect(add.status == 0 && add.stdout.contains("Ajouter un livre au catalogue."), "\(add.stdout)")
        #expect(add.stdout.contains("Le titre.") && !add.stdout.contains("Add a book"))
        let root = try await run("--help").stdout
        #expect(root.contains("CODES DE SORTIE") && root.contains("COMPTES") && root.contains("--lang <en|fr>"), "\(root)")
        // Option and command names never change.
        #expect(root.contains("--json") && root.contains("signup"))
        // Found by an outside walk: ArgumentParser's own words (headings, --help, --version, the
        // pointer to detailed help, defaults) stayed English in a French help.
        let loan = try await run("loan", "--help").stdout
        let search = try await run("search", "--help").stdout + (try await run("serve", "--help").stdout)
        for (help, words) in [
            (
                root,
                ["APERÇU\u{A0}: ", "UTILISATION\u{A0}: ", "OPTIONS\u{A0}:", "SOUS-COMMANDES — CATALOGUE\u{A0}:", "Afficher cette aide."]
            ),
            (
                loan,
                [
                    "Afficher la version.", "SOUS-COMMANDES\u{A0}:", "Voir «\u{A0}shelfmark help loan <sous-commande>\u{A0}»",
                    "UTILISATION\u{A0}: shelfmark loan <sous-commande>",
                ]
            ),
            (search, ["(par défaut\u{A0}: "]),
        ] {
            for word in words { #expect(help.contains(word), "\(word) in \(help)") }
            for english in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:", "Show help information", "Show the version", "(default:"] {
                #expect(!help.contains(english), "\(english) in \(help)")
            }
        }
        // And a usage error's detail in a problem document (an outside walk: --json kept it English).
        let json = try await run("--json", "book", "add", "--bogus")
        #expect(json.status == 64 && !json.stderr.contains("Unknown option") && json.stderr.contains("--bogus"), "\(json.stderr)")
        let inEnglish = try await run("loan", "--help", environment: Self.english).stdout
        #expect(inEnglish.contains("OVERVIEW: ") && inEnglish.contains("Show help information.") && inEnglish.contains("SUBCOMMANDS:"))
    }

    @Test func englishStaysTheDefault() async throws {
        for environment in [Self.english, Self.english.merging(["LANG": "C"]) { $1 }] {
            let add = try await run("book", "add", "--help", environment: environment).stdout
            #expect(add.contains("Add a book to the catalogue.") && add.contains("--lang"), "\(add)")
        }
    }

    @Test func langWinsOverTheLocaleAndLCALLOverLANG() async throws {
        #expect(try await run("--lang", "en", "book", "add", "--help").stdout.contains("Add a book to the catalogue."))
        #expect(try await run("book", "add", "--help", "--lang=en").stdout.contains("Add a book to the catalogue."))
        let english = Self.english.merging(["LANG": "en_US.UTF-8"]) { $1 }
        #expect(try await run("--lang", "fr", "book", "add", "--help", environment: english).stdout.contains("Ajouter un livre"))
        let canadian = english.merging(["LC_ALL": "fr_CA.UTF-8"]) { $1 }
        #expect(try await run("book", "add", "--help", environment: canadian).stdout.contains("Ajouter un livre au catalogue."))
        // --lang is accepted after the subcommand too, and parsed away.
        _ = try await addBook()
        let list = try await run("book", "list", "--lang", "en")
        #expect(list.status == 0 && list.stdout.hasPrefix("ID") && list.stdout.contains("TITLE"), "\(list.stderr)")
    }

    @Test func theLastLangBeforeDoubleDashWinsOverTheLocale() async throws {
        let french = ["LANG": "fr_BE.UTF-8"]
        #expect(try Speaking.choice(["shelfmark", "book", "list"], french).get() == .french)
        #expect(try Speaking.choice(["shelfmark", "--lang", "fr", "book", "list", "--lang=EN"], french).get() == .english)
        #expect(try Speaking.choice(["shelfmark", "--lang", "fr-CA", "book", "list"], [:]).get() == .french)
        #expect(try Speaking.choice(["shelfmark", "book", "add", "--", "--lang", "fr"], [:]).get() == .english)
        #expect(try Speaking.choice(["shelfmark", "--lang", "fr"], ["LC_ALL": "C", "LANG": "fr_FR.UTF-8"]).get() == .french)
        #expect(try Speaking.choice(["shelfmark"], ["LC_ALL": "C", "LANG": "fr_FR.UTF-8"]).get() == .english)
        #expect(throws: LanguageRefused.self) { try Speaking.choice(["shelfmark", "--lang", "de"], french).get() }
        #expect(throws: LanguageRefused.self) { try Speaking.choice(["shelfmark", "book", "list", "--lang"], french).get() }
    }

    @Test func aLanguageTheLibraryDoesNotSpeakIsRefusedInOneLine() async throws {
        let refused = try await run("--lang", "de", "book", "list")
        #expect(refused.status == 64 && refused.stdout.isEmpty, "\(refused)")
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("--lang") && lines[0].contains("en") && lines[0].contains("fr"), "\(refused.stderr)")
        let english = try await run("--lang", "de", "--help", environment: Self.english)
        #expect(english.status == 64 && english.stderr.hasPrefix("Error: --lang") && english.stdout.isEmpty, "\(english.stderr)")
    }

    @Test func aUsageErrorIsFramedInTheLanguage() async throws {
        let french = try await run("book", "lis")
        #expect(french.status == 64 && french.stderr.hasPrefix("Erreur\u{A0}: "), "\(french.stderr)")
        #expect(french.stderr.contains("Utilisation\u{A0}: shelfmark book") && french.stderr.contains("pour en savoir plus"))
        let english = try await run("book", "lis", environment: Self.english)
        #expect(
            english.status == 64
                && english.stderr == """
                    Error: Unexpected argument 'lis'
                    Usage: shelfmark book <subcommand>
                      See 'shelfmark book --help' for more information.

                    """,
            "\(english.stderr)")
    }

    @Test func theParsersSlipsAreSaidInFrenchToo() async throws {
        let cases: [([String], String)] = [
            (["book", "list", "--limit", "abc"], "la valeur «\u{A0}abc\u{A0}» ne convient pas à «\u{A0}--limit <limit>\u{A0}»"),
            (["book", "list", "--limti", "5"], "option inconnue «\u{A0}--limti\u{A0}»"),
            (["book", "lis"], "argument en trop «\u{A0}lis\u{A0}»"),
            (["book", "list", "--limit"], "il manque la valeur de «\u{A0}--limit <limit>\u{A0}»"),
        ]
        for (arguments, said) in cases {
            let french = try await shelfmark(arguments, database: db.path, environment: Self.french)
            #expect(french.status == 64 && french.stderr.hasPrefix("Erreur\u{A0}: " + said), "\(arguments): \(french.stderr)")
            for english in ["The value", "Unknown option", "Unexpected argument", "Missing value", "Help:"] {
                #expect(!french.stderr.contains(english), "\(arguments): \(french.stderr)")
            }
        }
        let english = try await run("book", "list", "--limit", "abc", environment: Self.english)
        #expect(english.stderr.hasPrefix("Error: The value 'abc' is invalid for '--limit <limit>'"), "\(english.stderr)")
    }

    @Test func aRefusalIsSaidInFrench() async throws {
        let book = try await addBook()
        #expect(try await run("loan", "checkout", book, "--name", "Mme Hudson").status == 0)
        let refused = try await run("loan", "checkout", book, "--name", "Watson")
        #expect(refused.status == 1 && refused.stderr.hasPrefix("Erreur\u{A0}: "), "\(refused.stderr)")
        #expect(!refused.stderr.contains("Error"), "\(refused.stderr)")
        let english = try await run("loan", "checkout", book, "--name", "Watson", environment: Self.english)
        #expect(english.status == 1 && english.stderr.hasPrefix("Error: ") && english.stderr.contains("no copy"), "\(english.stderr)")
    }

    @Test func tablesAreInFrenchWithFrenchDates() async throws {
        let book = try await addBook()
        #expect(try await run("loan", "checkout", book, "--name", "Mme Hudson").status == 0)
        let loans = try await run("loan", "list").stdout
        let months = "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"
        #expect(loans.hasPrefix("PRÊT") && loans.contains("EMPRUNTEUR") && loans.contains("sorti"), "\(loans)")
        #expect(loans.contains(try Regex("\\d{1,2} (\(months)) \\d{4} \\d{2}:\\d{2}")), "\(loans)")
        #expect(!loans.contains(/\d{4}-\d{2}-\d{2}/), "\(loans)")
        let shown = try await run("book", "show", book).stdout
        #expect(shown.contains("Exemplaires") && shown.contains("1 (0 disponible, 1 en prêt)"), "\(shown)")
        let english = try await run("loan", "list", environment: Self.english).stdout
        #expect(english.hasPrefix("LOAN") && english.contains(/[A-Z][a-z]+ \d{1,2}, \d{4} \d{2}:\d{2}/), "\(english)")
    }

    @Test func jsonIsTheSameInEveryLanguage() async throws {
        let book = try await addBook()
        let french = try await run("--json", "book", "show", book).stdout
        let english = try await run("--json", "book", "show", book, environment: Self.english).stdout
        #expect(french == english && french.contains("\"title\""))
    }
}
