import Foundation
import HTTPTypes
import Hummingbird

/// The stylesheet, the script and the icons, read once from the adapter's resources.
struct StaticFiles: Sendable {
    private let files: [String: (type: String, bytes: ByteBuffer)]

    init() throws {
        guard let folder = Bundle.module.url(forResource: "Static", withExtension: nil) else { throw MissingResource(name: "Static files") }
        var files: [String: (String, ByteBuffer)] = [:]
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            files[file.lastPathComponent] = (Self.type(of: file.pathExtension), ByteBuffer(bytes: try Data(contentsOf: file)))
        }
        self.files = files
    }

    /// The file called `name`, or a 404.
    func response(_ name: String) throws -> Response {
        guard let file = files[name] else { throw PageError(.notFound, .noSuchPage) }
        return Response(
            status: .ok, headers: [.contentType: file.type, .cacheControl: "public, max-age=3600"], body: .init(byteBuffer: file.bytes))
    }

    private static func type(of ext: String) -> String {
        switch ext {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }
}
