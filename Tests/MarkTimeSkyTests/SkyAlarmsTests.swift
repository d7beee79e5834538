import Foundation
import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// `plan.alarms`: a chime before noon and before each twilight window (#59 item 4).
@Suite("Warnings before noon and the twilight windows")
struct SkyAlarmsTests {
    let here = at(50 + 10.0 / 60, -(4 + 20.0 / 60))

    @Test func theMomentsAreTheEveningAndMorningWindowsAndNoonInTimeOrder() throws {
        // Given Plymouth from 13:00 UTC on 27 November 2026, the boat at anchor
        let now = utc(2026, 11, 27, 13)
        // When the next day's moments are listed
        let moments = SkyMoment.upcoming(after: now, from: DeadReckoning(here, at: now))
        // Then they are the evening window, the morning window and the next noon, as the almanac finds them
        let evening = try #require(SunEvents.twilightWindow(morning: false, after: now, from: here))
        let morning = try #require(SunEvents.twilightWindow(morning: true, after: now, from: here))
        let noon = try #require(MeridianPassage.localApparentNoon(DeadReckoning(here, at: utc(2026, 11, 28, 9))))
        #expect(moments.map(\.kind) == [.eveningTwilight, .morningTwilight, .noon])
        #expect(moments.map(\.utc) == [evening.start, morning.start, noon.utc])
        #expect(moments[0].until == evening.end)
    }

    @Test func aWarningComesOnceTenMinutesBeforeAndNotBefore() throws {
        let now = utc(2026, 11, 27, 13)
        let moments = SkyMoment.upcoming(after: now, from: DeadReckoning(here, at: now))
        let evening = moments[0].utc
        var alarms = SkyAlarms(minutes: 10)
        // Then none is due 11 minutes before, the next is at 10 minutes before, then it is due once
        let early = evening.adding(nanoseconds: -660_000_000_000), lead = evening.adding(nanoseconds: -600_000_000_000)
        #expect(alarms.due(now: early, moments).isEmpty)
        #expect(alarms.next(now: early, moments) == lead)
        #expect(alarms.due(now: lead, moments) == [moments[0]])
        #expect(alarms.due(now: lead.adding(nanoseconds: 30_000_000_000), moments).isEmpty)
        // And the next warning is the morning's
        #expect(alarms.next(now: lead, moments) == moments[1].utc.adding(nanoseconds: -600_000_000_000))
    }

    @Test func askedAtAnyTimeOfTheDayTheMomentsAreTheNextThreeOnce() throws {
        // Given the windows of the evening and the next morning
        let start = utc(2026, 11, 27, 13)
        let evening = try #require(SunEvents.twilightWindow(morning: false, after: start, from: here))
        let morning = try #require(SunEvents.twilightWindow(morning: true, after: start, from: here))
        // When the moments are asked for at their very ends and starts, and every 37 minutes of a day
        var asked = [evening.start, evening.end, morning.start, morning.end]
        asked += (0..<39).map { start.adding(nanoseconds: Int64($0) * 37 * 60_000_000_000) }
        for now in asked {
            let moments = SkyMoment.upcoming(after: now, from: DeadReckoning(here, at: now))
            // Then the search ends, and each is after it: three or four within 26 hours
            #expect(moments.allSatisfy { $0.utc > now }, "\(now.iso8601)")
            #expect((3...4).contains(moments.count), "\(now.iso8601): \(moments.map { "\($0.kind) \($0.utc.iso8601)" })")
        }
    }

    @Test func theWarningSaysWhatWhenAndWhere() throws {
        let now = utc(2026, 11, 27, 13)
        let m = SkyMoment.upcoming(after: now, from: DeadReckoning(here, at: now))[0]
        let said = m.sentence(now: m.utc.adding(nanoseconds: -600_000_000_000))
        #expect(said == "evening twilight begins in 10 min, at \(m.utc.isoTimeOfDayMinutes) UTC, at 50° 10'.00 N  4° 20'.00 W "
            + "(the Sun between -3° and -10° until \(try #require(m.until).isoTimeOfDayMinutes))")
    }

    @Test func aMovingBoatsNoonIsAtItsPositionThen() throws {
        // Given a boat sailing west at 20 kn from 06:00
        let start = utc(2026, 11, 27, 6)
        let dr = DeadReckoning(here, at: start, course: 270, knots: 20)
        // Then noon is where the boat will be, and later than at anchor
        let noon = try #require(SkyMoment.upcoming(after: start, from: dr).first { $0.kind == .noon })
        let anchored = try #require(SkyMoment.upcoming(after: start, from: DeadReckoning(here, at: start)).first { $0.kind == .noon })
        #expect(noon.position == dr.position(at: noon.utc))
        #expect(noon.utc > anchored.utc)
    }
}
