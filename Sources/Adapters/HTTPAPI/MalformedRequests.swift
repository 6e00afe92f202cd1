import APIContract
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// Refuses an address whose percent-encoding is broken (`%zz`, `%C3` alone) with a 400 problem:
/// the generated code would read such a query as something else, and search for it.
struct WellFormedAddress<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isWellFormed(request.uri.path), Self.isWellFormed(request.uri.query ?? "") else { throw MalformedAddress() }
        return try await next(request, context)
    }

    /// True when every `%` starts two hexadecimal digits and the bytes they stand for are UTF-8.
    static func isWellFormed(_ text: String) -> Bool {
        // A Swift string is valid UTF-8: without a `%` there is nothing to decode.
        guard text.utf8.contains(UInt8(ascii: "%")) else { return true }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return false }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A body's media type said once, and in UTF-8 if a character set is named, checked from the
/// headers before any body is read: two `Content-Type` fields (which a proxy and this server could
/// each read their own way) are a 400, a body in another character set a 415.
struct OneContentType<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let types = request.headers[values: .contentType]
        if types.count > 1 { throw TransportRefusal(TransportTexts.malformed(TransportTexts.contentTypes(types.count))) }
        if let charset = types.first.flatMap(Self.charset), !["utf-8", "utf8"].contains(charset.lowercased()) {
            throw TransportRefusal(
                Problem(
                    status: 415, slug: "unsupported-media-type", title: "Unsupported Media Type", detail: TransportTexts.notUTF8(charset)))
        }
        return try await next(request, context)
    }

    /// The `charset` parameter of a media type (`application/json; charset="utf-8"`), unquoted.
    static func charset(_ mediaType: String) -> String? {
        for parameter in mediaType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}

/// A request the transport refuses as it stands, with the problem that says why.
struct TransportRefusal: ProblemConvertible {
    let problem: Problem
    init(_ problem: Problem) { self.problem = problem }
}

/// An address that is not a valid URL.
struct MalformedAddress: ProblemConvertible {
    var problem: Problem { TransportTexts.malformed(TransportTexts.malformedURL) }
}

/// Answers a request the HTTP parser refuses (raw UTF-8, a space or a control character in the
/// address, a broken header) with a 400 problem document, where the server would send an empty
/// 400; the connection then closes, as after any parser error. A response already under way is
/// left alone: the error goes on to the server, which closes the connection.
final class MalformedRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    // The parts of the server's own pipeline at this place (NIOHTTPTypes' request and response parts).
    typealias InboundIn = HTTPConnectionStateHandler.InboundIn
    typealias InboundOut = HTTPConnectionStateHandler.InboundOut
    typealias OutboundIn = HTTPConnectionStateHandler.OutboundIn
    typealias OutboundOut = HTTPConnectionStateHandler.OutboundOut

    private var responding = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !responding, let bytes = try? Self.problem(parserError).encoded() else {
            context.fireErrorCaught(error)
            return
        }
        let head = HTTPResponse(
            status: .init(code: Self.problem(parserError).status),
            headerFields: [.contentType: "application/problem+json", .contentLength: String(bytes.readableBytes), .connection: "close"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(bytes)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind != .informational: responding = true
        case .end: responding = false
        default: break
        }
        context.write(data, promise: promise)
    }

    static func problem(_ error: HTTPParserError) -> Problem {
        switch error {
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort, .invalidCharactersUsed:
            TransportTexts.malformed(TransportTexts.malformedURL)
        case .headerOverflow: TransportTexts.malformed(TransportTexts.headersTooLarge, status: 431)
        default: TransportTexts.malformed(TransportTexts.notHTTP)
        }
    }
}

@available(*, unavailable)
extension MalformedRequestAnswer: Sendable {}
