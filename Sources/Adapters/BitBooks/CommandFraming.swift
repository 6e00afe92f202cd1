import NIOCore

/// What one read of a connection holds: commands, or a line too long to be one.
enum Piece: Equatable, Sendable {
    /// One command's bytes, without its line ending.
    case command([UInt8])
    /// A line past `CommandFraming.maxLineBytes`: answered with an error, then the connection closes.
    case tooLong
}

/// Cuts a connection's reads into commands. The protocol has no framing: the original clients
/// write each command at once, with no line ending, and the original server took each read as one
/// command. Here every newline ends a command (a trailing `\r` dropped), and the bytes a read leaves
/// after its last newline are one more command, so a client writing one command per write is
/// understood with or without `\n`; except when the read filled the receive buffer: the client
/// then had more queued, and those bytes wait for the rest of their line in the next read (found by
/// an outside test: a `LOAN` that a long pipelined write put across the buffer's end ran as two
/// commands, and lent its first book alone). When the client's input ends, a line still waiting is
/// one more command. Blank lines, and lines of spaces and tabs only, are skipped.
struct CommandFraming {
    /// The longest command line.
    static let maxLineBytes = 4_096
    /// What one read takes at most: two lines' worth (the receive buffer's size).
    static let readBytes = 2 * maxLineBytes

    /// The start of a line whose end has not arrived yet.
    private var waiting: [UInt8] = []

    /// Spaces, tabs and the rarer blanks (vertical tab, form feed, carriage return): a line of them only is blank.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The commands this read completes, in order; nothing after a `tooLong`.
    mutating func pieces(of read: ByteBuffer) -> [Piece] {
        var data = waiting
        data.append(contentsOf: read.readableBytesView)
        waiting = []
        guard read.readableBytes >= Self.readBytes else { return Self.lines(data[...]) }
        let end = data.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let complete = Self.lines(data[..<end])
        let rest = data[end...]
        if complete.last == .tooLong { return complete }
        // A line already too long (a `\r` may still end it: one byte more) need not wait for its end.
        if rest.count > Self.maxLineBytes + 1 { return complete + [.tooLong] }
        waiting = Array(rest)
        return complete
    }

    /// The client's input ended: the line still waiting, if any, is one more command.
    mutating func end() -> [Piece] {
        defer { waiting = [] }
        return Self.lines(waiting[...])
    }

    /// Every line of `bytes` (the last one may lack its newline) that is not blank, as a command.
    private static func lines<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> [Piece] {
        var pieces: [Piece] = []
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
