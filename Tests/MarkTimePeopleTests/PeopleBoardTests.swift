import MarkTimeCore
import MarkTimePeople
import Testing

/// Rules that change offset once, at `change` seconds since the epoch.
private struct OneChange: ZoneRules {
    var identifier: String
    var change: Int64
    var before: ZoneOffset
    var after: ZoneOffset
    func offset(atSecondsSinceEpoch seconds: Int64) -> ZoneOffset { seconds < change ? before : after }
}

private let brisbane = FixedZone("Australia/Brisbane", offset: ZoneOffset(seconds: 36_000, abbreviation: "AEST", isDST: false))
private let newYork = FixedZone("America/New_York", offset: ZoneOffset(seconds: -18_000, abbreviation: "EST", isDST: false))
private let day = CivilDate(daysSinceEpoch: 20_500) // 2026-02-16

@Suite("The people board's day for the Align slider")
struct PeopleBoardTests {
    @Test func aFixedZoneIsOneSegmentWithItsShift() {
        // Given someone in New York seen from Brisbane
        let board = PeopleBoard(zone: brisbane, home: nil, people: [.init(name: "Ann", rules: newYork, city: nil)], ship: nil)
        // When the day is laid out
        let row = board.day(day).rows[0]
        // Then New York is 15 hours behind all day, and 09:30 in Brisbane is 18:30 the day before
        #expect(row.segments == [AlignDay.Segment(from: 0, shift: -900, abbreviation: "EST", offset: "UTC-05:00", dst: false)])
        #expect(row.clock(at: 570) == (time: "18:30", dayOffset: -1))
        #expect(row.clock(at: 1439) == (time: "08:59", dayOffset: 0))
    }

    @Test func aChangeOfTheirClocksDuringYourDayStartsANewSegment() {
        // Given their clocks go forward an hour at 12:00 of the user's day (02:00 UTC)
        let change = Int64(day.daysSinceEpoch) * 86_400 + 2 * 3600
        let them = OneChange(identifier: "Test/Them", change: change,
                             before: ZoneOffset(seconds: 0, abbreviation: "GMT", isDST: false),
                             after: ZoneOffset(seconds: 3600, abbreviation: "BST", isDST: true))
        let board = PeopleBoard(zone: brisbane, home: nil, people: [.init(name: "Bo", rules: them, city: nil)], ship: nil)
        // When the day is laid out
        let row = board.day(day).rows[0]
        // Then the shift is −10 h until 12:00 and −9 h after
        #expect(row.segments == [
            AlignDay.Segment(from: 0, shift: -600, abbreviation: "GMT", offset: "UTC+00:00", dst: false),
            AlignDay.Segment(from: 720, shift: -540, abbreviation: "BST", offset: "UTC+01:00", dst: true),
        ])
        #expect(row.clock(at: 719) == (time: "01:59", dayOffset: 0))
        #expect(row.clock(at: 720) == (time: "03:00", dayOffset: 0))
    }

    @Test func aMinuteYourClocksSkipReadsOnTheOffsetBefore() {
        // Given the user's clocks go from +10 to +11 at 02:00 local
        let change = Int64(day.daysSinceEpoch) * 86_400 + 2 * 3600 - 36_000
        let you = OneChange(identifier: "Test/You", change: change,
                            before: ZoneOffset(seconds: 36_000, abbreviation: "AEST", isDST: false),
                            after: ZoneOffset(seconds: 39_600, abbreviation: "AEDT", isDST: true))
        let board = PeopleBoard(zone: you, home: nil, people: [], ship: nil)
        // Then 02:30, which the clocks skip, is the instant they showed 03:30; 03:30 is the same instant
        #expect(board.instant(on: day, minute: 150) == change + 1800)
        #expect(board.instant(on: day, minute: 210) == change + 1800)
    }

    @Test func theShipKeepsZoneTimeForItsLongitudeAndHasASky() throws {
        // Given the ship at 153° 22'.84 E
        let board = PeopleBoard(zone: brisbane, home: nil, people: [], ship: try Position.parse("-27.3807 153.3807"))
        // When the day is laid out
        let ship = board.day(day).rows[0]
        // Then it keeps ZD −10 (the same as Brisbane), with 144 sky samples, night at midnight and day at noon
        #expect(ship.name == "Ship")
        #expect(ship.segments == [AlignDay.Segment(from: 0, shift: 0, abbreviation: "ZD −10", offset: "UTC+10:00", dst: false)])
        #expect(ship.sky.count == 144)
        #expect(ship.sky(at: 0)?.shade == "night")
        #expect(ship.sky(at: 720)?.shade == "day")
    }

    @Test func aZoneWithoutACityHasNoSky() {
        let board = PeopleBoard(zone: brisbane, home: nil, people: [.init(name: "Cy", rules: newYork, city: nil)], ship: nil)
        #expect(board.day(day).rows[0].sky.allSatisfy { $0 == nil })
    }
}

@Suite("A person as they are kept")
struct PersonCheckTests {
    @Test func theirNameIsTrimmedAndABlankOneRefused() throws {
        #expect(try Person.checked(name: " Mum\n", zone: "Europe/London") == Person(name: "Mum", zone: "Europe/London"))
        #expect(throws: InputError("a person needs a name, e.g. Mum")) { try Person.checkedName("   ") }
    }
}
