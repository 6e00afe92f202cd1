import Application
import Foundation
import GRDB
import HummingbirdTesting
import LogChain
import Testing
import Wording

/// What `audit verify` found, worded in English and French by the Wording target, and read so
/// through the command line under a French locale.
@Suite("Audit findings in English and French")
struct AuditFindingsWordingTests {
    static let english = Wording(.english)
    static let french = Wording(.french)
    static let nbsp = "\u{00A0}"

    /// One of each finding.
    static let samples: [AuditFinding] = [
        .noChainKey, .keyNotInUse(keyedFrom: 4), .keyNotRecorded(path: "/l.key", keyedFrom: 4),
        .keyProblem(.keyDisagrees(path: "/l.key", fileKeyedFrom: 1, fileKey: "a", keyedFrom: 2, key: "b")),
        .keyFileGone(path: "/l.key"), .keyFileChanged(path: "/l.key"), .keyed(path: "/l.key", keyedFrom: 1),
        .noEvents, .allKeyed(head: 3), .chainedWithoutKey(head: 3), .chainedBeforeKeying(head: 3), .partlyKeyed(plain: 3, head: 5),
        .chainBreaks(position: 2, stored: nil, computed: "0a1b2c3d4e5f", unkeyedFrom: 1), .exportChainBreaks(position: 2),
        .doesNotFollow(position: 3, previous: 1), .falseRedaction(position: 2, type: "book.added.v1"),
        .exportChained(events: 1, streams: 1), .positionMissing(2, next: 3),
        .versionJumps(stream: "book-1", from: 1, to: 3, position: 4), .exportVersionJumps(stream: "book-1", to: 3, position: 4),
        .eventsRemoved(seen: 5, head: 3), .contiguous(events: 3, streams: 2), .triggersInPlace, .triggerMissing("events_no_delete"),
        .triggerAltered("events_no_delete"), .unexpectedTriggers(["t1", "t2"]),
        .replayStopped(position: 2, type: "book.added.v1", part: .payload),
        .replayStopped(position: 2, type: "book.added.v0", part: .unknownType),
        .rowDiffers(table: "loans", key: "1", live: "copies=1", replayed: nil), .rowMissingLive(table: "loans", key: "1", replayed: "a=1"),
        .replayEqual(events: 3, readModels: 9), .personalData(sealed: 0, erasedMembers: 1, inClear: 2),
        .personalData(sealed: 2, erasedMembers: 0, inClear: 0), .erasedUnchecked(positions: [4]),
        .personalKeyMissing(member: "m", position: 3), .erasedWithoutClosing(member: "m", position: 3),
        .keyAfterErasure(member: "m", position: 3), .claimNameWrong(position: 2),
        .secretsUnchecked(positions: Array(1...12)), .notAnExportedEvent(line: 3), .anchorFileUnreadable(path: "/a"),
        .noAnchorFile(path: "/a"), .notAnAnchor(line: 2, path: "/a"), .anchorsUncheckable, .wrongSignature(line: 2, position: 1),
        .headLacking(position: 5, time: "2026-11-22T14:05:00Z", line: 1, why: .logCut(head: 3)), .emptyLogHash, .logRewritten,
        .noAnchorsYet(path: "/a"), .anchorsHeld(count: 1, path: "/a", furthest: 3, time: "2026-11-22T14:05:00Z"),
        .all([.triggerMissing("x"), .triggerAltered("y")]), .fileIntact, .fileDamaged("database disk image is malformed"),
    ]

    @Test func aBrokenChainIsSaidInEachLanguageWithItsNumbers() {
        let broken = AuditFinding.chainBreaks(position: 1234, stored: "0a1b2c3d4e5f", computed: "9f8e7d6c5b4a", unkeyedFrom: nil)
        #expect(Self.english.text(broken) == "the chain breaks at position 1,234 (stored 0a1b2c3d4e5f, computed 9f8e7d6c5b4a)")
        let position = Formats(.french).number(1234)
        #expect(position.hasPrefix("1") && position.hasSuffix("234") && position.count == 5, "\(position)")
        #expect(
            Self.french.text(broken) == "la chaîne est rompue à la position \(position) (enregistré 0a1b2c3d4e5f, calculé 9f8e7d6c5b4a)")
        #expect(Self.french.text(.hashChain) == "chaîne de hachage" && Self.english.text(.hashChain) == "hash chain")
    }

    @Test func frenchCountsZeroAndOneInTheSingularAndJoinsProblemsWithSemicolons() {
        #expect(
            Self.french.text(.personalData(sealed: 0, erasedMembers: 1, inClear: 0))
                == "0 événement scellé avec la clé d'un membre\(Self.nbsp); 1 membre effacé\(Self.nbsp); "
                + "aucun événement d'un membre effacé n'est antérieur au chiffrement")
        #expect(Self.english.text(.replayEqual(events: 1, readModels: 9)) == "1 event replayed; 9 read models equal row for row")
        #expect(
            Self.french.text(.all([.triggerMissing("events_no_delete"), .unexpectedTriggers(["mine"])]))
                == "events_no_delete est absent\(Self.nbsp); déclencheur inattendu\(Self.nbsp): mine")
        #expect(
            Self.french.text(.anchorsHeld(count: 2, path: "/a", furthest: 3, time: "2026-11-22T14:05:00Z"))
                == "le journal contient chaque tête ancrée\(Self.nbsp): 2 ancres dans /a, la plus avancée à la position 3 (2026-11-22T14:05:00Z)"
        )
    }

    @Test func everyFindingAndCheckHasWordsOfItsOwnInFrench() {
        for finding in Self.samples {
            let (english, french) = (Self.english.text(finding), Self.french.text(finding))
            #expect(!english.isEmpty && !english.contains("audit.") && !french.contains("audit."), "\(finding): \(english) / \(french)")
            #expect(french != english, "\(finding) is the same in French: \(french)")
        }
        for kind in AuditCheck.Kind.allCases where kind != .export {
            #expect(Self.french.text(kind) != Self.english.text(kind) && !Self.french.text(kind).contains("audit."), "\(kind)")
        }
        // The stable name the API answers with is the English one.
        #expect(AuditCheck.Kind.allCases.allSatisfy { Self.english.text($0) == $0.rawValue })
    }

    @Test func auditVerifySpeaksFrenchUnderAFrenchLocaleAndItsJSONKeepsTheNames() async throws {
        let db = TemporaryDatabase()
        let french = ["LANG": "fr_FR.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "TZ": "UTC"]
        for n in 1...3 { _ = try await shelfmark(["book", "add", "--title", "Book \(n)", "--author", "A"], database: db.path) }
        let ok = try await shelfmark(["audit", "verify"], database: db.path, environment: french)
        #expect(ok.status == 0 && ok.stdout.contains("chaîne de hachage\(Self.nbsp): positions 1 à 3"), "\(ok.stdout)\(ok.stderr)")
        #expect(ok.stdout.contains("3 événements rejoués") && !ok.stdout.contains("events replayed"), "\(ok.stdout)")
        let raw = try DatabaseQueue(path: db.path)
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER events_no_update")
            try db.execute(sql: "UPDATE events SET payload = replace(payload, 'Book 2', 'Book Two') WHERE position = 2")
        }
        try raw.close()
        let broken = try await shelfmark(["audit", "verify"], database: db.path, environment: french)
        #expect(broken.status == 1)
        #expect(
            broken.stdout.contains("ÉCHEC chaîne de hachage\(Self.nbsp): la chaîne est rompue à la position 2 (enregistré ")
                && broken.stdout.contains("ÉCHEC déclencheurs d'ajout seul\(Self.nbsp): events_no_update est absent"),
            "\(broken.stdout)")
        let json = try await shelfmark(["--json", "audit", "verify"], database: db.path, environment: french).stdout
        #expect(json.contains("\"name\" : \"hash chain\"") && json.contains("la chaîne est rompue à la position 2"), "\(json)")
    }

    @Test func theAPIWordsEachDetailForItsReaderAndKeepsTheNames() async throws {
        try await withAPI { api in
            _ = try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#)
            for (language, said) in [
                ("en", "read models equal row for row"), ("fr-CA,fr;q=0.9", "modèles de lecture identiques ligne par ligne"),
            ] {
                let report = try await api.send(.get, "/api/v1/audit/verify", language: language).object
                let checks = try #require(report["checks"] as? [[String: Any]])
                let replay = try #require(checks.first { $0["name"] as? String == "replay" })
                #expect((replay["detail"] as? String)?.hasSuffix(said) == true, "\(language): \(replay)")
                #expect(checks.compactMap { $0["name"] as? String }.contains("hash chain"), "\(checks)")
            }
        }
    }

    @Test func theWebAuditPageShowsTheChecksInFrench() async throws {
        try await withAPI { api in
            _ = try await api.addBook("Dune")
            let librarian = Browser(api, session: api.librarianToken)
            _ = try await librarian.get("/audit", headers: WebLibrarianFrenchTests.french)
            let verdict = try await librarian.post("/audit/verify", [], headers: WebLibrarianFrenchTests.french)
            #expect(verdict.status == .ok && verdict.shows("chaîne de hachage") && verdict.shows("déclencheurs d&#39;ajout seul"))
            #expect(verdict.shows("événement") && !verdict.shows("events replayed"), "\(verdict.text)")
            #expect(
                WebLibrarianFrenchTests.englishLeft(in: verdict.text).isEmpty, "\(WebLibrarianFrenchTests.englishLeft(in: verdict.text))")
        }
    }
}
