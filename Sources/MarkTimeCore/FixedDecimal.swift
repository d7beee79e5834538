import Foundation

/// A number with a fixed count of decimals, exactly as C's `printf("%.*f")` writes it: the
/// binary value's exact decimal expansion rounded half to even, a `-` for any negative
/// value (so `-0.001` to two places is `-0.00`). Exports write many of these, so the usual
/// case (under 2⁵³, at most 9 places) is integer arithmetic without allocation; the rest
/// (huge values, infinities, NaNs, more places) goes to the C library itself.
public enum FixedDecimal {
    /// Appends `value` with `places` decimals as UTF-8.
    public static func append(_ value: Double, places: Int, to bytes: inout [UInt8]) {
        guard value.isFinite, value.magnitude < 0x1p53, (0...9).contains(places) else {
            appendWithLibc(value, places: places, to: &bytes)
            return
        }
        if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
        let scale = powersOfTen[places]
        let rounded = scaledRounded(value.magnitude, scale: scale)
        // rounded < 2⁵³ × 10⁹ + 1: the whole part fits 64 bits, the fraction is under 10⁹.
        appendDigits(UInt64(rounded / UInt128(scale)), minimumCount: 1, to: &bytes)
        if places > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(UInt64(rounded % UInt128(scale)), minimumCount: places, to: &bytes)
        }
    }

    /// `value` with `places` decimals.
    public static func string(_ value: Double, places: Int) -> String {
        var bytes: [UInt8] = []
        append(value, places: places, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendWithLibc(_ value: Double, places: Int, to bytes: inout [UInt8]) {
        let places = min(max(places, 0), 60)
        var buffer = [CChar](repeating: 0, count: 400)  // 1.8e308 has 309 digits, then the point and 60 places
        let n = withVaList([places, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        bytes += buffer[0..<Int(max(0, min(n, 399)))].map { UInt8(bitPattern: $0) }
    }

    static let powersOfTen: [UInt64] = (0...9).map { p in (0..<p).reduce(1) { r, _ in r * 10 } }

    /// round-half-even(magnitude × scale), exactly: magnitude is m × 2^e with m < 2⁵³, and
    /// m × scale < 2⁸³ fits in 128 bits.
    static func scaledRounded(_ magnitude: Double, scale: UInt64) -> UInt128 {
        guard magnitude > 0 else { return 0 }
        let normal = magnitude.exponentBitPattern != 0
        let m = UInt128(magnitude.significandBitPattern | (normal ? 1 << 52 : 0))
        let shift = normal ? 1075 - Int(magnitude.exponentBitPattern) : 1074
        let x = m * UInt128(scale)
        guard shift > 0 else { return x << -shift }
        guard shift < 128 else { return 0 }  // x < 2⁸³, so x ÷ 2^shift < 2⁻⁴⁴: rounds to 0
        var q = x >> shift
        let remainder = x & ((1 << shift) - 1), half = UInt128(1) << (shift - 1)
        if remainder > half || (remainder == half && q & 1 == 1) { q += 1 }
        return q
    }

    /// Appends `value`'s decimal digits, zero-padded on the left to `minimumCount`.
    public static func appendDigits(_ value: UInt64, minimumCount: Int, to bytes: inout [UInt8]) {
        var count = 1, rest = value
        while rest >= 10 { rest /= 10; count += 1 }
        count = max(count, minimumCount)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var v = value, i = start + count - 1
        while v > 0 {
            bytes[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            i -= 1
        }
    }
}
