import NIOCore
import Testing

@testable import BitBooks

/// How one read is cut into commands, and how a command's words are read.
@Suite("BitBooks protocol: framing and parsing")
struct BitBooksFramingTests {
    private func pieces(_ text: String) -> [Piece] { CommandFraming.pieces(of: ByteBuffer(string: text)) }
    private func command(_ text: String) -> Piece { .command(Array(text.utf8)) }

    @Test func linesAndTheRestOfAReadAreCommands() {
        #expect(pieces("GET_BOOKS\n") == [command("GET_BOOKS")])
        #expect(pieces("GET_BOOKS") == [command("GET_BOOKS")])
        #expect(pieces("LOGIN a b\r\nGET_BOOKS\n\nGET_LOANS a") == [command("LOGIN a b"), command("GET_BOOKS"), command("GET_LOANS a")])
        #expect(pieces("\n\r\n").isEmpty)
    }

    @Test func aLineOf4096BytesIsACommandAndOneByteMoreIsNot() {
        let longest = String(repeating: "a", count: 4_096)
        #expect(pieces(longest + "\n") == [command(longest)])
        #expect(pieces("GET_BOOKS\n" + longest + "a\nGET_BOOKS\n") == [command("GET_BOOKS"), .tooLong])
        #expect(pieces(longest + "a") == [.tooLong])
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
