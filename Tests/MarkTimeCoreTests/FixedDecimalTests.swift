import Foundation
import MarkTimeCore
import Testing

@Suite("Fixed decimals, as printf's %.*f writes them")
struct FixedDecimalTests {
    /// The C library's own `%.*f`, the reference.
    static func printf(_ value: Double, _ places: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let n = withVaList([places, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        return String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("Exact ties round half to even; below and above a tie round to nearest", arguments: [
        (0.125, 2, "0.12"), (0.375, 2, "0.38"), (2.5, 0, "2"), (3.5, 0, "4"), (0.5, 0, "0"),
        (1.0 / 3.0, 5, "0.33333"), (2.0 / 3.0, 5, "0.66667"), (0.015, 2, "0.01"), (0.025, 2, "0.03"),
    ])
    func ties(value: Double, places: Int, expected: String) {
        // Given a value whose binary form is, or is near, a decimal tie; when written; then as printf.
        #expect(FixedDecimal.string(value, places: places) == expected)
        #expect(Self.printf(value, places) == expected)
    }

    @Test("Negative values keep their sign even when they round to zero", arguments: [
        (-0.001, 2, "-0.00"), (-0.0, 3, "-0.000"), (-12.345678, 5, "-12.34568"), (-0.5, 0, "-0"),
    ])
    func negatives(value: Double, places: Int, expected: String) {
        #expect(FixedDecimal.string(value, places: places) == expected)
    }

    @Test("Zero, the smallest subnormal and large values", arguments: [
        (0.0, 2, "0.00"), (Double.leastNonzeroMagnitude, 9, "0.000000000"), (9007199254740991.0, 2, "9007199254740991.00"),
        (Double.infinity, 2, "inf"), (-Double.infinity, 0, "-inf"),
        (Double.nan, 2, "nan"), (-Double.nan, 2, "-nan"), (123.456, 12, "123.456000000000"),
    ])
    func edges(value: Double, places: Int, expected: String) {
        #expect(FixedDecimal.string(value, places: places) == expected)
    }

    @Test("Values beyond the fast path are the C library's own")
    func beyond() {
        // Given 10³⁰⁰ (past 2⁵³); when written to one place; then 301 digits, a point and a 0, as printf.
        let text = FixedDecimal.string(1e300, places: 1)
        #expect(text == Self.printf(1e300, 1))
        #expect(text.count == 303)
        #expect(text.hasPrefix("1000000000000000052504760255204420248704"))  // 10³⁰⁰ is not a double: the nearest one
    }

    @Test("A million values across magnitudes and every place count 0–9 match printf")
    func differential() {
        // Given values from a fixed-seed generator (angles, offsets, tiny and huge numbers,
        // and exact multiples of binary fractions that make decimal ties);
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
        var mismatches: [String] = []
        for i in 0..<1_000_000 {
            let r = next()
            let value: Double
            switch i % 4 {
            case 0: value = Double(Int64(bitPattern: r) % 360_000_000) / 1_000_000  // degrees to 6 places
            case 1: value = Double(bitPattern: r & 0x7FFF_FFFF_FFFF_FFFF | (r & 1) << 63)  // any bit pattern
            case 2: value = Double(Int64(bitPattern: r) % (1 << 20)) / Double(1 << (r >> 59))  // binary fractions: ties
            default: value = (Double(r >> 11) / Double(1 << 53) - 0.5) * pow(10, Double(Int(r % 40) - 20))
            }
            let places = Int((r >> 40) % 10)
            // when written by both; then they agree.
            let ours = FixedDecimal.string(value, places: places), theirs = Self.printf(value, places)
            if ours != theirs, mismatches.count < 5 { mismatches.append("\(value.bitPattern) \(places): \(ours) vs \(theirs)") }
        }
        #expect(mismatches == [])
    }
}
