/// Numbers from users and from stored rows: checked before use, and shown without trapping.
public enum Quantity {
    /// `v` as a whole number when it is finite and small enough to convert, else its own
    /// description (`inf`, `1e+300`).
    public static func whole(_ v: Double) -> String {
        let r = v.rounded()
        return r.isFinite && abs(r) < 1e15 ? String(Int64(r)) : String(v)
    }

    /// `150 m`, `2.5 m` below 10 m (so a small radius never reads as `0 m`).
    public static func metres(_ v: Double) -> String {
        if v.isFinite, abs(v) < 10, v != v.rounded() { return "\(Double(Int64((v * 10).rounded())) / 10) m" }
        return "\(whole(v)) m"
    }

    /// A plain decimal number (`150`, `-2.5`, `.5`): no hexadecimal (`0x10`), exponent
    /// (`1e308`), `inf` or `nan`, which `Double(_:)` would take. Nil when it is not one.
    public static func decimal(_ text: String) -> Double? {
        let t = text.trimmingWhitespace()
        guard t.wholeMatch(of: /[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)/) != nil, let v = Double(t), v.isFinite else { return nil }
        return v
    }

    /// A number typed in a form (`150`, `2.5`); `what` names it in the refusal.
    public static func parse(_ text: String, what: String) throws(InputError) -> Double {
        let t = text.trimmingWhitespace()
        guard !t.isEmpty else { throw InputError("give the \(what)") }
        guard let v = decimal(t) else {
            throw InputError("the \(what) '\(Text.escaped(text))' is not a number: write it like 150 or 2.5")
        }
        return v
    }

    /// A user's number, refused unless finite and inside `range`: `what` names the value
    /// (`--radius`), `unit` follows the bounds in the sentence.
    public static func check(_ v: Double, in range: ClosedRange<Double>, what: String, unit: String = "") throws(InputError) -> Double {
        guard v.isFinite, range.contains(v) else {
            let u = unit.isEmpty ? "" : " " + unit
            throw InputError("\(what) \(v.isFinite ? Position.plain(v) : String(v)) is out of range: give a number from "
                + "\(Position.plain(range.lowerBound))\(u) to \(Position.plain(range.upperBound))\(u)")
        }
        return v
    }
}
