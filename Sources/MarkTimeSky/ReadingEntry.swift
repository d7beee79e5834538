import MarkTimeCore

/// The reading caught at the moment: which bodies a sight's body steps through (the
/// keypad's body key), the body and Hs the phone's quick entry starts from, and a
/// reading request carried out on a sight. Pure: the daemon's writer loads and stores.
public enum ReadingEntry {
    /// The bodies a sight at `utc` from `position` steps through: the plan's chosen set by
    /// Zn, then the rest of its band, then every other body seen, brightest first (by day
    /// the Sun, the Moon and Venus only).
    public static func bodies(at utc: UTCTime, from position: Position) throws(InputError) -> [Body] {
        try planned(at: utc, from: position).all
    }

    /// `bodies(at:from:)`, and the plan's chosen set (none when no plan can be made).
    static func planned(at utc: UTCTime, from position: Position) throws(InputError) -> (chosen: [Body], all: [Body]) {
        guard let time = SkyTime(utc) else {
            throw InputError("\(utc.iso8601) is outside the almanac's years \(SkyTime.years.lowerBound)–\(SkyTime.years.upperBound)")
        }
        let sextant = SextantReading(hs: 0, eyeHeight: 0, limb: .lower)
        var list: [Body] = [], chosen: [Body] = []
        if let plan = try? SightPlan(at: utc, from: position, sextant: sextant) {
            chosen = plan.chosen.map(\.body)
            list = plan.lines.filter { $0.chosen || $0.reason == SightPlan.inBand }.map(\.body)
        }
        let sun = Almanac.entry(.sun, at: time)
        let byDay = Computed(gha: sun.gha, declination: sun.declination, latitude: position.latitude, longitude: position.longitude).altitude
            > SightPlan.daylight
        for seen in Almanac.visible(at: time, from: position) where !list.contains(seen.body) {
            if byDay ? [.sun, .moon, .venus].contains(seen.body) : seen.body != .sun && seen.magnitude <= SightPlan.Options().faintest {
                list.append(seen.body)
            }
        }
        return (chosen, list)
    }

    /// What the phone's quick entry offers for a sight: the bodies, the one preselected, and
    /// its predicted Hs as the keypad takes it (`3412.3`).
    public struct Suggestion: Hashable, Sendable {
        public var bodies: [Body]
        public var body: Body?
        /// The preselected body's Hs for the navigator's sextant at the sight's time; nil
        /// without a height of eye.
        public var hs: Double?
    }

    /// The quick entry for `sight` (nil without a GPS position or DR): the planned body
    /// nearest to the moment, the first of the plan's chosen set, by Zn, that no sight of
    /// `recent` (the hour before it) has, else the first of the list; and its Hs for
    /// `sextant` (the limb: the Sun's and the Moon's lower).
    public static func suggestion(for sight: Sight, sextant: SextantReading?, recent: [Sight]) -> Suggestion? {
        guard let position = sight.trustedPosition ?? sight.dr,
              let (chosen, all) = try? planned(at: sight.estimate.utc, from: position) else { return nil }
        let taken = Set(recent.compactMap { $0.body.flatMap(Body.init(named:)) })
        let body = sight.body.flatMap(Body.init(named:)) ?? chosen.first { !taken.contains($0) } ?? all.first
        let hs = body.flatMap { b in sextant.flatMap { try? SightPlan.line(b, at: sight.estimate.utc, from: position, sextant: $0).hs } }
        return Suggestion(bodies: all, body: body, hs: hs.flatMap { $0 >= 0 ? $0 : nil })
    }

    /// The body after `current` (a name as stored) among `bodies(at:from:)`, round the
    /// list; the first when the sight has none or one not in the list.
    public static func nextBody(after current: String?, at utc: UTCTime, from position: Position) throws(InputError) -> Body {
        let list = try bodies(at: utc, from: position)
        guard !list.isEmpty else {
            throw InputError("no body is above the horizon and bright enough at \(utc.iso8601) from \(position.ddm): set it by hand "
                + "(`marktime sight edit ID --body NAME`)")
        }
        guard let current, let body = Body(named: current), let i = list.firstIndex(of: body) else { return list[0] }
        return list[(i + 1) % list.count]
    }

    /// Carries out `change` on `sight` (its position, else its DR, places the plan): the
    /// edit to store and what it changes; refused in words where it cannot be done.
    public static func edit(_ sight: Sight, _ change: ReadingRequest.Change) throws(InputError) -> (SightEdit, ReadingChange) {
        guard let id = sight.id else { throw InputError("the sight has no id: it is not stored yet") }
        let before = ReadingChange.Reading(body: sight.body, hs: sight.hs)
        var edit = SightEdit()
        var after = before
        switch change {
        case .hs(let value):
            edit.hs = .set(value)
            after.hs = value
        case .set(let hs, let body):
            if let hs {
                edit.hs = .set(hs)
                after.hs = hs
            }
            if let body {
                let name = try Body.parse(body).name
                edit.body = .set(name)
                after.body = name
            }
        case .nextBody:
            guard let position = sight.trustedPosition ?? sight.dr else {
                throw InputError("sight \(id) has no GPS position or DR, so no plan says which bodies were up: "
                    + "give it a DR (`marktime sight edit \(id) --dr POS`) or set the body by hand (`--body NAME`)")
            }
            let name = try nextBody(after: sight.body, at: sight.estimate.utc, from: position).name
            edit.body = .set(name)
            after.body = name
        case .restore(let earlier):
            guard earlier.sightID == id else { throw InputError("the change to undo is sight \(earlier.sightID)'s, not sight \(id)'s") }
            // Only what that change set, and only while the sight still holds it: an edit
            // made since (the sight's page, `sight edit`) is never undone unseen.
            guard before == earlier.after else {
                throw InputError("sight \(id) was changed since (\(ReadingChange(sightID: id, before: before, after: before).sentence)): nothing undone; "
                    + "edit it by hand (`marktime sight edit \(id)`)")
            }
            if earlier.before.body != earlier.after.body { edit.body = earlier.before.body.map { .set($0) } ?? .clear }
            if earlier.before.hs != earlier.after.hs { edit.hs = earlier.before.hs.map { .set($0) } ?? .clear }
            after = earlier.before
            return (edit, ReadingChange(sightID: id, before: before, after: after, undoes: true))
        }
        return (edit, ReadingChange(sightID: id, before: before, after: after))
    }

    /// The preset said aloud at `utc` from `position`: the plan's chosen body to shoot next
    /// (the first, by Zn, that no sight of the hour before has), `Vega, fifty-one forty,
    /// bearing zero seven five` (`LivePreset.spoken`).
    public static func presetSpoken(at utc: UTCTime, from position: Position, sextant: SextantReading, recent: [Sight]) throws(InputError) -> String {
        let plan = try SightPlan(at: utc, from: position, sextant: sextant)
        let hourBefore = utc.adding(nanoseconds: -3_600_000_000_000)
        let taken = Set(recent.filter { $0.estimate.utc >= hourBefore }.compactMap { $0.body.flatMap(Body.init(named:)) })
        let line = plan.chosen.first { !taken.contains($0.body) } ?? plan.chosen[0]
        return LivePreset.spoken(line, limb: sextant.limb)
    }
}
