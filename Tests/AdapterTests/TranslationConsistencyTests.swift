import Domain
import Foundation
import Testing
import Wording

/// Every text exists in English and in French with the same placeholders, and every key the code
/// asks for is in both: checked over every `*.lproj` folder of the adapters and every
/// `t("key"…)` / `[[key]]` the sources name, so a text added in one language only fails here.
@Suite struct TranslationConsistencyTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Each adapter folder with language resources, and its tables by language.
    static func tables() throws -> [(target: String, english: [String: String], french: [String: String])] {
        let adapters = try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent("Adapters").path).sorted()
        return try adapters.compactMap { name in
            let folder = sources.appendingPathComponent("Adapters/\(name)")
            let english = folder.appendingPathComponent("en.lproj/Localizable.strings")
            guard FileManager.default.fileExists(atPath: english.path) else { return nil }
            return (name, try table(english), try table(folder.appendingPathComponent("fr.lproj/Localizable.strings")))
        }
    }

    static func table(_ url: URL) throws -> [String: String] {
        let data = try Data(contentsOf: url)
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        return try #require(plist as? [String: String], "\(url.path) is not a strings table")
    }

    @Test func everyTextIsInBothLanguagesWithTheSamePlaceholders() throws {
        let tables = try Self.tables()
        #expect(tables.map(\.target).contains("Wording"))
        for (target, english, french) in tables {
            #expect(!english.isEmpty, "\(target) has no English texts")
            let onlyEnglish = Set(english.keys).subtracting(french.keys).sorted()
            let onlyFrench = Set(french.keys).subtracting(english.keys).sorted()
            #expect(onlyEnglish.isEmpty, "\(target): in English only: \(onlyEnglish)")
            #expect(onlyFrench.isEmpty, "\(target): in French only: \(onlyFrench)")
            for (key, text) in english {
                guard let translation = french[key] else { continue }
                #expect(
                    Placeholders.positions(in: text) == Placeholders.positions(in: translation),
                    "\(target): \(key) has other placeholders in French: \(text) / \(translation)")
                #expect(!translation.isEmpty, "\(target): \(key) is empty in French")
            }
        }
    }

    /// The keys the sources ask for: `t("key"` (with `count:`, both plural forms) and `[[key]]` in templates.
    @Test func everyKeyTheCodeAsksForExists() throws {
        for (target, english, _) in try Self.tables() {
            let folder = Self.sources.appendingPathComponent("Adapters/\(target)")
            var asked: Set<String> = []
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") || file.hasSuffix(".mustache") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                // Comments may show the syntax (`t("key")`) without asking for a text.
                let code = text.split(separator: "\n").filter { !$0.trimmingPrefix(while: \.isWhitespace).hasPrefix("//") }
                asked.formUnion(Self.keys(in: code.joined(separator: "\n"), template: file.hasSuffix(".mustache")))
            }
            #expect(!asked.isEmpty, "\(target) asks for no key")
            let missing = asked.filter { english[$0] == nil }.sorted()
            #expect(missing.isEmpty, "\(target) asks for keys it does not have: \(missing)")
        }
    }

    /// `t("a.b")` → a.b; `t("a.b", count: n` → a.b.one and a.b.other; in a template, `[[a.b]]` → a.b.
    static func keys(in source: String, template: Bool) -> Set<String> {
        var keys: Set<String> = []
        for match in source.matches(of: /\bt\("([A-Za-z0-9_.\-]+)"(, count:)?/) {
            let key = String(match.output.1)
            if match.output.2 != nil { keys.formUnion([key + ".one", key + ".other"]) } else { keys.insert(key) }
        }
        guard template else { return keys }  // `[[String]]` in Swift is a type
        for match in source.matches(of: /\[\[([A-Za-z0-9_.\-]+)\]\]/) { keys.insert(String(match.output.1)) }
        return keys
    }

    @Test func placeholdersAreFilledByPositionOrInTurn() {
        #expect(Placeholders.fill("%1$@ a %2$@ exemplaires", with: ["Dune", "2"]) == "Dune a 2 exemplaires")
        #expect(Placeholders.fill("%2$@, %1$@", with: ["a", "b"]) == "b, a")
        #expect(Placeholders.fill("%@ and %@ at 100%%", with: ["x", "y"]) == "x and y at 100%")
        // Read byte by byte (issue 20): text around placeholders in any script, odd percents kept.
        #expect(Placeholders.fill("« %1$@ » — 東京 %2$@ 📚", with: ["Émile", "ß"]) == "« Émile » — 東京 ß 📚")
        #expect(Placeholders.fill("50% off, %x, %1$ and %", with: ["a"]) == "50% off, %x, %1$ and %")
        #expect(Placeholders.fill("%3$@|%@|%12$@", with: ["a", "b"]) == "|a|")
        #expect(Placeholders.fill("missing %3$@.", with: ["a"]) == "missing .")
        #expect(Placeholders.positions(in: "%@ %@ %%") == [1, 2])
        #expect(Placeholders.positions(in: "%2$@ %1$@") == [1, 2])
    }

    @Test func textsReadOnceAreWhatTheBundleSaysForEveryKey() throws {
        let folder = Self.sources.appendingPathComponent("Adapters/Wording")
        for language in Language.allCases {
            let bundle = try #require(Bundle(path: folder.appendingPathComponent("\(language.rawValue).lproj").path))
            let table = try Self.table(folder.appendingPathComponent("\(language.rawValue).lproj/Localizable.strings"))
            for key in table.keys {
                #expect(Wording.texts.template(key, in: language) == bundle.localizedString(forKey: key, value: nil, table: nil), "\(key)")
            }
        }
    }

    @Test func theLanguagesFolderOfTheBundleIsRead() {
        #expect(Wording.texts("message.times.many", in: .french, "3") == "3 fois")
        #expect(Wording.texts("message.copiesOnLoan.other", in: .english, "Dune", "2").hasPrefix("Dune has 2 copies on loan"))
        #expect(Wording.texts("no.such.key", in: .french) == "no.such.key")
        #expect(Language.french.isSingular(0) && !Language.english.isSingular(0))
    }
}
