import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' own child processes: a child must not keep a test server's connection open.
@Suite("Child processes of the tests")
struct SubprocessTests {
    @Test func aChildHoldsNoCopyOfADescriptorThatIsNotCloseOnExec() async throws {
        // A connected pair whose ends are inherited by default, as SwiftNIO's accepted sockets are.
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let (ours, peer) = (ends[0], ends[1])
        defer { close(peer) }
        let child = try ChildProcess.spawn("/bin/sleep", ["30"], environment: [:])
        defer {
            kill(child.pid, SIGKILL)
            child.wait()
        }
        close(ours)
        // With a copy of `ours` in the child, the peer would see no end until the child exits.
        var poller = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 10_000) == 1)
        var byte: UInt8 = 0
        #expect(recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0, "the peer saw the end of the connection")
    }
}
