import MarkTimeCore
import MarkTimeTasks
import Testing

private let brisbane = FixedZone("Australia/Brisbane", offset: ZoneOffset(seconds: 36_000, abbreviation: "AEST", isDST: false))
/// 2026-11-23T00:00:00Z, 10:00 in Brisbane.
private let now: Int64 = 1_795_392_000

@Suite("Task times as typed and shown")
struct TaskTimesTests {
    @Test func aDueTimeInTheHomeZoneIsShownInIt() throws {
        let times = TaskTimes(now: now, zone: brisbane)
        let due = try times.due("2026-11-27 17:00", what: "--due")
        #expect(due.iso8601 == "2026-11-27T07:00:00.000Z")
        #expect(times.show(due) == "2026-11-27 17:00 AEST")
    }

    @Test func aReminderCountsBackFromTheDueTime() throws {
        let times = TaskTimes(now: now, zone: brisbane)
        let due = try times.due("2026-11-27 17:00", what: "--due")
        #expect(times.show(try times.reminder("30m-before", what: "--remind", due: due)) == "2026-11-27 16:30 AEST")
    }

    @Test func aReminderAlreadyPastIsRefusedNamingTheField() throws {
        let times = TaskTimes(now: now, zone: brisbane)
        let due = try times.due("2026-11-23 12:00", what: "Due")
        #expect(throws: InputError("Reminder: 2026-11-23 09:00 AEST has already passed; give a time still to come")) {
            try times.reminder("3h-before", what: "Reminder", due: due)
        }
    }

    @Test func anUnreadableTimeNamesTheField() {
        #expect(throws: InputError("--due: cannot read the time 'someday': use \(WhenParser.forms)")) {
            try TaskTimes(now: now, zone: brisbane).due("someday", what: "--due")
        }
    }

    @Test func aTargetIsALetterInAnyCaseOrAPercent() throws {
        let scale = GradeScale.standard
        #expect(try scale.target("a", course: "NAV101") == (percent: 90, label: "A (90%)"))
        #expect(try scale.target("85%", course: "NAV101") == (percent: 85, label: "85%"))
        #expect(throws: InputError("'Z' is neither a letter of NAV101's scale (A=90,B=80,C=70,D=60) nor a percent from 0 to 100")) {
            try scale.target("Z", course: "NAV101")
        }
    }
}
