/// Code 128 (ISO/IEC 15417) in code set C, written from the symbology's tables: what a card's
/// barcode is made of. Each symbol is 11 modules wide, three bars and three spaces of 1 to 4
/// modules; the barcode is the Start C symbol, one symbol per pair of digits (value 00 to 99),
/// a check symbol, and the Stop symbol (13 modules: a final 2-module bar). The check symbol's
/// value is the start's value plus each data symbol's value times its position (from 1),
/// modulo 103. Code set C packs two digits per symbol, so a ten-digit card is seven symbols.
public enum Code128 {
    /// The widths of each symbol value (0-106): bar, space, bar, space, bar, space (and a last
    /// bar for Stop), in modules.
    static let patterns: [String] = [
        "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",  // 0-9
        "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",  // 10-19
        "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",  // 20-29
        "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",  // 30-39
        "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",  // 40-49
        "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",  // 50-59
        "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",  // 60-69
        "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",  // 70-79
        "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",  // 80-89
        "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",  // 90-99
        "114131", "311141", "411131", "211412", "211214", "211232", "2331112",  // 100-106
    ]
    static let startC = 105
    static let stop = 106
    /// Modules of light space each side, so a scanner finds where the barcode begins and ends.
    public static let quietZone = 10

    /// The symbol values for `digits` (an even number of ASCII digits): Start C, one per pair,
    /// the check symbol, Stop; nil for anything else.
    public static func symbols(digits: String) -> [Int]? {
        let values: [Int] = digits.unicodeScalars.map { $0.isASCII ? Int($0.value) - 48 : -1 }
        guard !values.isEmpty, values.count % 2 == 0, values.allSatisfy({ (0...9).contains($0) }) else { return nil }
        let pairs: [Int] = stride(from: 0, to: values.count, by: 2).map { values[$0] * 10 + values[$0 + 1] }
        return [startC] + pairs + [checkSymbol(start: startC, pairs), stop]
    }

    /// The check symbol: the start's value and each data symbol's value times its position, modulo 103.
    static func checkSymbol(start: Int, _ data: [Int]) -> Int {
        data.enumerated().reduce(start) { ($0 + ($1.offset + 1) * $1.element) % 103 }
    }

    /// The widths, in modules, of the bars and spaces of `digits`' barcode, alternating and
    /// starting with a bar, without the quiet zones; nil when `symbols` gives none.
    public static func widths(digits: String) -> [Int]? {
        symbols(digits: digits)?.flatMap { patterns[$0].compactMap(\.wholeNumberValue) }
    }
}
