import Foundation
import NIOCore
import Testing
import Wording

@testable import Composition

#if canImport(Glibc)
    import Glibc
#endif

/// `serve` where it cannot listen says why in one line a person can act on, with status 2 (a
/// setting that cannot be used), before it opens or creates the database.
@Suite("serve where it cannot listen")
struct ServeListenTests {
    @Test func aPortInUseIsOneClearLine() async throws {
        let db = TemporaryDatabase()
        try await FakeUpstreams().run { base in
            let port = try #require(base.split(separator: ":").last.flatMap { Int($0) })
            let result = try await shelfmark(["serve", "--port", "\(port)"], database: db.path)
            #expect(result.status == 2)
            #expect(
                result.stderr
                    == "Error: port \(port) is already in use on 127.0.0.1; stop the other server or choose another port with --port\n")
        }
        #expect(!FileManager.default.fileExists(atPath: db.path), "a server that could not start created a database")
    }

    @Test func anAddressOfAnotherMachineIsOneClearLine() async throws {
        let db = TemporaryDatabase()
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
        let result = try await shelfmark(["serve", "--host", "192.0.2.1", "--port", "0"], database: db.path)
        #expect(result.status == 2)
        #expect(
            result.stderr.split(separator: "\n") == [
                "Error: 192.0.2.1 is not an address of this machine; choose one of its addresses with --host (127.0.0.1 for this machine only, 0.0.0.0 for every network)"
            ])
    }

    @Test func aPrivilegedPortIsOneClearLine() async throws {
        // Root may bind port 1; everyone else is refused, as CI's user is.
        guard geteuid() != 0 else { return }
        let result = try await shelfmark(["serve", "--port", "1"], database: TemporaryDatabase().path)
        #expect(result.status == 2)
        #expect(
            result.stderr == "Error: port 1 on 127.0.0.1 needs privileges this user does not have; choose a port from 1024 up with --port\n"
        )
    }

    @Test(
        "the socket's errors are told as what to change",
        arguments: [
            (EADDRINUSE, ListenFailure.portInUse(host: "::1", port: 80)), (EACCES, .portNeedsPrivilege(host: "::1", port: 80)),
            (EADDRNOTAVAIL, .notAnAddressHere(host: "::1")),
        ] as [(Int32, ListenFailure)])
    func errnos(errno: Int32, failure: ListenFailure) {
        // As NIO throws them when the server binds (the port taken between the probe and the bind).
        #expect(ListenFailure.of(IOError(errnoCode: errno, reason: "bind(descriptor:ptr:bytes:)"), host: "::1", port: 80) == failure)
        let said = Wording.english.text(.cannotListen(failure))
        for leak in ["errno", "bind(", "descriptor", "Error"] { #expect(!said.contains(leak)) }
    }

    @Test func otherErrorsAreNotDisguised() {
        #expect(ListenFailure.of(IOError(errnoCode: EMFILE, reason: "accept"), host: "127.0.0.1", port: 80) == nil)
        #expect(ListenFailure.of(CancellationError(), host: "127.0.0.1", port: 80) == nil)
    }
}
