import NIOCore
import Testing

@testable import BitBooks

/// How reads are cut into commands, and how a command's words are read.
@Suite("BitBooks protocol: framing and parsing")
struct BitBooksFramingTests {
    private func pieces(_ text: String) -> [Piece] {
        var framing = CommandFraming()
        return framing.pieces(of: ByteBuffer(string: text)) + framing.end()
    }
    private func command(_ text: String) -> Piece { .command(Array(text.utf8)) }

    /// What each read completes, then what the end of the input completes.
    private func reads(_ texts: [String]) -> [[Piece]] {
        var framing = CommandFraming()
        return texts.map { framing.pieces(of: ByteBuffer(string: $0)) } + [framing.end()]
    }

    /// `text` padded with `GET_BOOKS` lines in front to fill one read exactly.
    private func filling(_ text: String) -> (read: String, padding: Int) {
        let room = CommandFraming.readBytes - text.utf8.count
        let lines = room / 10
        return (String(repeating: "GET_BOOKS\n", count: lines) + String(repeating: " ", count: room - lines * 10) + text, lines)
    }

    @Test func linesAndTheRestOfAReadAreCommands() {
        #expect(pieces("GET_BOOKS\n") == [command("GET_BOOKS")])
        #expect(pieces("GET_BOOKS") == [command("GET_BOOKS")])
        #expect(pieces("LOGIN a b\r\nGET_BOOKS\n\nGET_LOANS a") == [command("LOGIN a b"), command("GET_BOOKS"), command("GET_LOANS a")])
        #expect(pieces("\n\r\n").isEmpty)
        // The original clients: one command per write, no line ending, each answered at once.
        #expect(reads(["LOGIN ada pw", "GET_LOANS ada"]) == [[command("LOGIN ada pw")], [command("GET_LOANS ada")], []])
    }

    @Test func aLineCutByTheEndOfAFullReadWaitsForItsRest() {
        // Found by an outside test: a LOAN cut after its first ISBN by the receive buffer ran as two commands.
        let (full, padding) = filling("\nLOAN ada 978")
        let cut = reads([full, "0441172719 9780000000002\nGET_LOANS ada"])
        #expect(cut.first?.count == padding && cut.first?.allSatisfy { $0 == command("GET_BOOKS") } == true)
        #expect(Array(cut.dropFirst()) == [[command("LOAN ada 9780441172719 9780000000002"), command("GET_LOANS ada")], []])
        // The end of the input ends a line still waiting.
        #expect(reads([full]).last == [command("LOAN ada 978")])
    }

    @Test func aLineOf4096BytesIsACommandAndOneByteMoreIsNot() {
        let longest = String(repeating: "a", count: 4_096)
        #expect(pieces(longest + "\n") == [command(longest)])
        #expect(pieces("GET_BOOKS\n" + longest + "a\nGET_BOOKS\n") == [command("GET_BOOKS"), .tooLong])
        #expect(pieces(longest + "a") == [.tooLong])
        // Across reads: a waiting line past the limit ends the connection without waiting for its end.
        let (full, _) = filling("\n" + longest)
        #expect(reads([full, "a\r\n"]).dropFirst().first == [.tooLong])
        #expect(reads([full, "\r\n"]).dropFirst().first == [command(longest)])
    }

    @Test func wordsAreSplitOnSpacesAndCountedPerCommand() {
        #expect(BitBooksCommand(Array("LOAN ada 1 2 3".utf8)) == .loan(username: "ada", isbns: ["1", "2", "3"]))
        // A password is the rest of the line after the space that ends the username, spaces and all.
        #expect(BitBooksCommand(Array("LOGIN  ada   pw".utf8)) == .logIn(username: "ada", password: "  pw"))
        #expect(BitBooksCommand(Array("LOGIN spacey Space Pass-12 ".utf8)) == .logIn(username: "spacey", password: "Space Pass-12 "))
        #expect(
            BitBooksCommand(Array("ADD_USER Grace  Hopper grace Secret Pass-12".utf8))
                == .addUser(name: "Grace", surname: "Hopper", username: "grace", password: "Secret Pass-12"))
        #expect(BitBooksCommand(Array("LOGIN ada ".utf8)) == .misused(usage: "LOGIN USERNAME PASSWORD"))
        #expect(BitBooksCommand(Array("GET_BOOK".utf8)) == .misused(usage: "GET_BOOK ISBN"))
        #expect(BitBooksCommand(Array("LOGIN\tada pw".utf8)) == .unknown)
        #expect(BitBooksCommand([0xFF, 0xFE]) == .unknown)
        #expect(BitBooksCommand(Array("Get_Books".utf8)) == .unknown)
    }
}
