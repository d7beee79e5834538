import MarkTimeCore

/// Task times as a user types and reads them, in the home zone, against one "now": the
/// CLI's options and the phone page's fields read and refuse them the same way.
public struct TaskTimes: Sendable {
    public var zone: any ZoneRules
    /// Now, in seconds since the epoch.
    public var now: Int64

    public init(now: Int64, zone: any ZoneRules) {
        self.now = now
        self.zone = zone
    }

    /// A due time (or any time that may be past); `what` names the field in errors (`--due`).
    public func due(_ text: String, what: String) throws(InputError) -> UTCTime {
        try read(text, what: what, before: nil)
    }

    /// A reminder, which may count back from `due` (`30m-before`) and must still be to come.
    public func reminder(_ text: String, what: String, due: UTCTime) throws(InputError) -> UTCTime {
        let at = try read(text, what: what, before: due.wholeSeconds)
        guard at.wholeSeconds >= now else { throw InputError("\(what): \(show(at)) has already passed; give a time still to come") }
        return at
    }

    /// `2026-11-27 17:00 AEST`.
    public func show(_ t: UTCTime) -> String { zone.localText(t) }

    private func read(_ text: String, what: String, before due: Int64?) throws(InputError) -> UTCTime {
        do {
            return try UTCTime(validWholeSeconds: try WhenParser(now: now, zone: zone).parse(text, before: due))
        } catch {
            throw InputError("\(what): \(error)")
        }
    }
}

extension GradeScale {
    /// A letter of the scale (any case) or a percent from 0 to 100 (`85`, `85%`): the
    /// percent, and how to name it (`A (90%)`, `85%`). `course` names the course in errors.
    public func target(_ text: String, course: String) throws(InputError) -> (percent: Double, label: String) {
        let t = text.trimmingWhitespace()
        if let found = letters.first(where: { $0.letter.lowercased() == t.lowercased() }) {
            return (found.minimum, "\(found.letter) (\(Position.plain(found.minimum))%)")
        }
        if let p = Quantity.decimal(t.hasSuffix("%") ? String(t.dropLast()) : t), (0...100).contains(p) {
            return (p, "\(Position.plain(p))%")
        }
        throw InputError("'\(text)' is neither a letter of \(course)'s scale (\(self)) nor a percent from 0 to 100")
    }
}

extension GradeBook {
    /// What reaching `label` takes, in one sentence.
    public func needSentence(_ need: Need, label: String) -> String {
        switch need {
        case .needs(let p):
            "for \(label): average \(Self.text(p))% on the \(Self.text(pendingWeight))% still pending "
                + "(secured \(Self.text(secured)), at best \(Self.text(possible))%)"
        case .secured: "\(label) is already secured: \(Self.text(secured)) points are in"
        case .unreachable(let best): "\(label) can no longer be reached: the best possible is \(Self.text(best))% of the final grade"
        }
    }

    /// When the types' weights leave part of the final grade unassigned, the sentence that says so.
    public func unassignedSentence(code: String) -> String? {
        guard unassignedWeight > 0 else { return nil }
        return "the types total \(Self.text(totalWeight))% of the final grade, so \(Self.text(unassignedWeight))% "
            + "can never be earned until `marktime course weight \(code) TYPE PERCENT` assigns it"
    }
}
