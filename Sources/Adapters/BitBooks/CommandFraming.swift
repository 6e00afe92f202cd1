import NIOCore

/// What one read of a connection holds: commands, or a line too long to be one.
enum Piece: Equatable, Sendable {
    /// One command's bytes, without its line ending.
    case command([UInt8])
    /// A line past `CommandFraming.maxLineBytes`: answered with an error, then the connection closes.
    case tooLong
}

/// The protocol has no framing: the original server took each read as one command. Here every
/// newline-terminated line of a read is one command (a trailing `\r` dropped), and bytes a read
/// leaves without a newline are one more command, so a client writing one command per write,
/// with or without `\n`, is understood either way. A command must therefore arrive in one read:
/// any client that writes each command at once does that. Blank lines, and lines of spaces and tabs
/// only, are skipped.
enum CommandFraming {
    /// The longest command line.
    static let maxLineBytes = 4_096

    /// Spaces, tabs and the rarer blanks (vertical tab, form feed, carriage return): a line of them only is blank.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The pieces of one read, in order; nothing after a `tooLong`.
    static func pieces(of read: ByteBuffer) -> [Piece] {
        var pieces: [Piece] = []
        let bytes = read.readableBytesView
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var line = bytes[start..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard line.count <= maxLineBytes else { return pieces + [.tooLong] }
            if !line.allSatisfy(isBlank) { pieces.append(.command(Array(line))) }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return pieces
    }
}
