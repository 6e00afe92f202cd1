import Domain

/// A library card's barcode as an SVG image, drawn here from `Code128`'s widths: black bars on a
/// white ground with the quiet zones, the number printed under the bars as the card shows it.
/// Nothing is fetched; the image is a few hundred bytes of text.
public enum CardImage {
    /// Pixels per module (the narrowest bar).
    static let module = 2
    /// The bars' height, in pixels.
    static let barHeight = 60
    /// Room under the bars for the printed number, in pixels.
    static let textHeight = 22

    /// The SVG document for `card`.
    public static func svg(_ card: CardNumber) -> String {
        let widths = Code128.widths(digits: card.digits) ?? []
        let width = (widths.reduce(0, +) + 2 * Code128.quietZone) * module
        let height = barHeight + textHeight + 2 * module
        var x = Code128.quietZone * module
        var bars: [String] = []
        for (index, modules) in widths.enumerated() {
            if index % 2 == 0 {
                bars.append("<rect x=\"\(x)\" y=\"\(module)\" width=\"\(modules * module)\" height=\"\(barHeight)\"/>")
            }
            x += modules * module
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            shape-rendering="crispEdges">
            <title>Library card \(card.grouped)</title>
            <rect width="\(width)" height="\(height)" fill="#ffffff"/>
            <g fill="#000000">
            \(bars.joined(separator: "\n"))
            </g>
            <text x="\(width / 2)" y="\(height - module * 2)" text-anchor="middle" font-family="monospace" font-size="16">\
            \(card.grouped)</text>
            </svg>

            """
    }
}
