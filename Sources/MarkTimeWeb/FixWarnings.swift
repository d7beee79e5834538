import MarkTimeSky

extension FixWork {
    /// The flags as the fix page says them: each once. A warning that several sights share
    /// (past the last measured ΔT, every sight of the fix has it) is one line naming them
    /// all, `sights 21, 22, 23: past the last measured ΔT …`, where the flags have one line a
    /// sight (`sight 21: …`); the order is that of each warning's first line.
    var warnings: [String] {
        var said: [String] = [], sights: [String: [String]] = [:]
        for flag in flags.map(\.message) {
            let (sight, warning) = Self.sightAndWarning(flag)
            if sights[warning] == nil { said.append(warning) }
            if let sight, !sights[warning, default: []].contains(sight) { sights[warning, default: []].append(sight) }
        }
        return said.map { warning in
            let ids = sights[warning] ?? []
            return ids.isEmpty ? warning : "\(ids.count == 1 ? "sight" : "sights") \(ids.joined(separator: ", ")): \(warning)"
        }
    }

    /// `sight 21: warning` split into the sight and its warning; a flag of the whole fix has no sight.
    static func sightAndWarning(_ flag: String) -> (sight: String?, warning: String) {
        guard flag.hasPrefix("sight "), let colon = flag.range(of: ": ") else { return (nil, flag) }
        let sight = flag[flag.index(flag.startIndex, offsetBy: 6)..<colon.lowerBound]
        guard !sight.isEmpty, !sight.contains(" ") else { return (nil, flag) }
        return (String(sight), String(flag[colon.upperBound...]))
    }
}
