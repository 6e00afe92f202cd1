import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// No command writes over the files a library keeps beside its database (found by an outside
/// test: `audit export -o library.sqlite` replaced the library with its export, and `backup --to
/// library.sqlite.key --force` put a database where the chain key was).
@Suite("The library's own files, through the CLI")
struct LibraryOwnFilesTests {
    let db = TemporaryDatabase()

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, environment: environment)
    }

    /// The files beside the database that SQLite does not rewrite as it opens and closes it, by
    /// name, and their bytes (nil: not there); the database itself is checked by `audit verify`.
    func files() -> [String: Data?] {
        Dictionary(
            uniqueKeysWithValues: ["-journal", ".key", ".anchors", ".lock"].map { suffix in
                (suffix, FileManager.default.contents(atPath: db.path + suffix))
            })
    }

    @Test func exportsBackupsAnchorsAndReplaysRefuseTheLibrarysFiles() async throws {
        #expect(try await run(["book", "add", "--title", "Dune", "--author", "Frank Herbert"]).status == 0)
        #expect(try await run(["audit", "anchor"]).status == 0)
        let before = files()
        let attempts: [[String]] = [
            ["audit", "export", "-o", db.path], ["audit", "export", "-o", db.path + ".key"],
            ["audit", "export", "-o", db.path + "-wal"], ["audit", "export", "-o", db.path + ".lock"],
            ["audit", "export", "-o", db.path + ".anchors"],
            ["backup", "--to", db.path + ".key", "--force"], ["backup", "--to", db.path + ".anchors", "--force"],
            ["backup", "--to", db.path + "-journal"],
            ["audit", "anchor", "--to", db.path], ["audit", "anchor", "--to", db.path + ".key"],
            ["audit", "replay", "--into", db.path + "-journal"],
        ]
        for arguments in attempts {
            let refused = try await run(arguments)
            #expect(refused.status != 0, "\(arguments)")
            #expect(refused.stderr.contains("is one of the library's own files"), "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
        #expect(files() == before, "nothing beside the database changed")
        let verified = try await run(["audit", "verify"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        // The anchor file is the one own file an anchor goes to; any other file is the person's to name.
        #expect(try await run(["audit", "anchor", "--to", db.path + ".anchors"]).status == 0)
        let export = db.folder.appendingPathComponent("log.jsonl").path
        #expect(try await run(["audit", "export", "-o", export]).status == 0)
        #expect(try String(contentsOfFile: export, encoding: .utf8).contains("book.added"))
    }

    @Test func aChainKeyKeptElsewhereIsTheLibrarysToo() async throws {
        let key = db.folder.appendingPathComponent("secrets/chain.key").path
        try FileManager.default.createDirectory(atPath: (key as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let environment = ["SHELFMARK_CHAIN_KEY": key]
        #expect(try await run(["book", "add", "--title", "Dune", "--author", "Frank Herbert"], environment: environment).status == 0)
        let secret = try #require(FileManager.default.contents(atPath: key))
        let refused = try await run(["audit", "export", "-o", key], environment: environment)
        #expect(refused.status != 0 && refused.stderr.contains("is one of the library's own files"), "\(refused.stderr)")
        #expect(FileManager.default.contents(atPath: key) == secret)
    }

    /// Found by an outside walk: a link to an own file not made yet (the anchors, the journal) got
    /// past the check, and a new file's `-shm` hard-linked to the library was written through.
    @Test func linksToTheLibrarysFilesAreTheLibrarysFiles() async throws {
        #expect(try await run(["book", "add", "--title", "Dune", "--author", "Frank Herbert"]).status == 0)
        let folder = (db.path as NSString).deletingLastPathComponent
        let toAnchors = folder + "/to-anchors"
        let toJournal = folder + "/to-journal"
        try FileManager.default.createSymbolicLink(atPath: toAnchors, withDestinationPath: db.path + ".anchors")
        try FileManager.default.createSymbolicLink(
            atPath: toJournal, withDestinationPath: (db.path as NSString).lastPathComponent + "-journal")
        for arguments in [
            ["audit", "replay", "--into", toAnchors], ["audit", "anchor", "--to", toJournal], ["audit", "replay", "--into", toJournal],
        ] {
            let refused = try await run(arguments)
            #expect(refused.status != 0 && refused.stderr.contains("is one of the library's own files"), "\(arguments): \(refused.stderr)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: db.path + ".anchors") && !FileManager.default.fileExists(atPath: db.path + "-journal"))
        let out = folder + "/out"
        try FileManager.default.linkItem(atPath: db.path + ".key", toPath: out + "-shm")
        let key = FileManager.default.contents(atPath: db.path + ".key")
        let replay = try await run(["audit", "replay", "--into", out])
        #expect(replay.status == 64 && replay.stderr.contains("exists already"), "\(replay.stderr)")
        #expect(FileManager.default.contents(atPath: db.path + ".key") == key)
        #expect(try await run(["audit", "verify"]).status == 0)
    }

    /// Found by an outside walk: a byte that is not UTF-8 appended to the anchor file made verify
    /// say "no anchor file yet" and pass; an anchor to a pipe waited for a reader.
    @Test func anAnchorFileThatCannotBeReadFailsAndAPipeIsNoAnchorFile() async throws {
        #expect(try await run(["book", "add", "--title", "Dune", "--author", "Frank Herbert"]).status == 0)
        #expect(try await run(["audit", "anchor"]).status == 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db.path + ".anchors"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0xFF]))
        try handle.close()
        let verify = try await run(["audit", "verify"])
        #expect(verify.status == 1 && verify.stdout.contains("FAIL anchors"), "\(verify.stdout)")
        let pipe = (db.path as NSString).deletingLastPathComponent + "/a-pipe"
        #expect(mkfifo(pipe, 0o600) == 0)
        let anchored = try await run(["audit", "anchor", "--to", pipe])
        #expect(anchored.status != 0, "\(anchored.stderr)")
    }
}
