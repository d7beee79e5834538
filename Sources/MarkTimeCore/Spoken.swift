/// Numbers and readings as a navigator reads them out, for the daemon's speech.
public enum Spoken {
    private static let digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    private static let teens = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// 0 to 99 in words: `zero`, `seven`, `fifteen`, `forty`, `fifty-one`.
    public static func number(_ n: Int) -> String {
        switch n {
        case ..<10: digits[max(0, n)]
        case 10..<20: teens[n - 10]
        default: tens[min(n, 99) / 10] + (n % 10 == 0 ? "" : "-" + digits[n % 10])
        }
    }

    /// A digit's word.
    public static func digit(_ d: Int) -> String { digits[max(0, min(9, d))] }

    /// Whole minutes as a navigator says them after the degrees: `zero zero`, `oh five`, `forty`.
    public static func minutes(_ m: Int) -> String {
        m == 0 ? "zero zero" : (m < 10 ? "oh " : "") + number(m)
    }

    /// An altitude to the tenth of a minute: 34° 12′.3 is `thirty-four twelve point three`,
    /// 5° 02′.0 `five oh two point zero`, 40° 00′.0 `forty zero zero point zero`.
    public static func altitude(_ degrees: Double) -> String {
        let tenths = Int((max(0, degrees) * 600).rounded())
        return "\(number(tenths / 600)) \(minutes(tenths % 600 / 10)) point \(digit(tenths % 10))"
    }
}

extension ReadingChange {
    /// What is read back once kept: `sight 12, Vega, thirty-four twelve point three`.
    public var spoken: String {
        "sight \(sightID), " + (after.body ?? "no body") + ", " + (after.hs.map(Spoken.altitude) ?? "no reading") + (undoes ? ", undone" : "")
    }
}
