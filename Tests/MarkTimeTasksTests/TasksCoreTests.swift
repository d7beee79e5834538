import MarkTimeCore
import MarkTimeDevices
import MarkTimeTasks
import Testing

func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Int64 {
    UTCTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)!.nanosecondsSinceEpoch / 1_000_000_000
}

/// Saturday 21 November 2026, 10:15 in Brisbane (00:15 UTC).
@Suite("WHEN: deadlines and reminders")
struct WhenTests {
    let parser = WhenParser(now: utc(2026, 11, 21, 0, 15), zone: try! TZDatabase().rules("Australia/Brisbane"))

    @Test func isoWithZ() throws { #expect(try parser.parse("2026-11-25T17:00Z") == utc(2026, 11, 25, 17, 0)) }
    @Test func isoWithAnOffset() throws { #expect(try parser.parse("2026-11-25T17:00:30+10:00") == utc(2026, 11, 25, 7, 0, 30)) }
    @Test func isoWithACompactNegativeOffset() throws { #expect(try parser.parse("2026-11-25T17:00-0330") == utc(2026, 11, 25, 20, 30)) }
    @Test func dateAndTimeInTheHomeZone() throws { #expect(try parser.parse("2026-11-25 17:00") == utc(2026, 11, 25, 7, 0)) }
    @Test func today() throws { #expect(try parser.parse("today 17:00") == utc(2026, 11, 21, 7, 0)) }
    @Test func tomorrow() throws { #expect(try parser.parse("tomorrow 09:00") == utc(2026, 11, 21, 23, 0)) }
    @Test func aWeekdayIsTheNextOneToCome() throws { #expect(try parser.parse("fri 17:00") == utc(2026, 11, 27, 7, 0)) }
    @Test func todaysWeekdayLaterTodayIsToday() throws { #expect(try parser.parse("Saturday 17:00") == utc(2026, 11, 21, 7, 0)) }
    @Test func todaysWeekdayEarlierTodayIsNextWeek() throws { #expect(try parser.parse("sat 09:00") == utc(2026, 11, 27, 23, 0)) }
    @Test func relativeHours() throws { #expect(try parser.parse("+2h") == utc(2026, 11, 21, 2, 15)) }
    @Test func relativeCombined() throws { #expect(try parser.parse("+1d1h30m20s") == utc(2026, 11, 22, 1, 45, 20)) }

    @Test func beforeTheDueTime() throws {
        #expect(try parser.parse("30m-before", before: utc(2026, 11, 25, 7, 0)) == utc(2026, 11, 25, 6, 30))
    }

    @Test func beforeWithoutADueTimeIsRefused() {
        #expect(throws: InputError("'30m-before' counts back from the due time, so it only works for --remind")) {
            try parser.parse("30m-before")
        }
    }

    @Test func aMalformedTimeListsTheAcceptedForms() {
        #expect(throws: InputError("cannot read the time 'next week': use " + WhenParser.forms)) { try parser.parse("next week") }
        #expect(throws: InputError("cannot read the time '2026-02-30 10:00': use " + WhenParser.forms)) { try parser.parse("2026-02-30 10:00") }
        #expect(throws: InputError("cannot read the time '+2x': use " + WhenParser.forms)) { try parser.parse("+2x") }
        #expect(throws: InputError("cannot read the time '2026-11-25T25:00Z': use " + WhenParser.forms)) { try parser.parse("2026-11-25T25:00Z") }
    }

    @Test func aMinuteInAGapIsRefused() {
        let ny = WhenParser(now: utc(2026, 3, 1, 0, 0), zone: try! TZDatabase().rules("America/New_York"))
        #expect(throws: InputError("02:30 does not exist on 2026-03-08 in America/New_York: the clocks go forward 60 minutes there, from EST to EDT; choose a time outside the gap")) {
            try ny.parse("2026-03-08 02:30")
        }
    }
}

@Suite("grade maths")
struct GradeBookTests {
    /// Exams 60 (Midterm 80, Final pending), Homework 40 (HW1 95).
    let worked = GradeBook(weights: ["Exams": 60, "Homework": 40], assignments: [
        .init(title: "Midterm", type: "Exams", score: 80),
        .init(title: "Final", type: "Exams"),
        .init(title: "HW1", type: "Homework", score: 95),
    ])

    @Test func theWorkedExample() {
        #expect(worked.shares == [30, 30, 40])
        #expect(worked.secured == 62)
        #expect(worked.gradedWeight == 70)
        #expect(String(format: "%.2f", worked.current!) == "88.57")
        #expect(GradeScale.standard.letter(for: worked.current!) == "B")
        guard case .needs(let p) = worked.need(90) else { Issue.record("\(worked.need(90))"); return }
        #expect(String(format: "%.2f", p) == "93.33")
    }

    @Test func nothingGraded() {
        let book = GradeBook(weights: ["Exams": 60, "Homework": 40], assignments: [.init(title: "Final", type: "Exams")])
        #expect(book.current == nil)
        #expect(book.secured == 0)
        #expect(book.pendingWeight == 100)
        #expect(book.need(90) == .needs(percent: 90))
    }

    @Test func allGraded() {
        let book = GradeBook(weights: ["Exams": 100], assignments: [.init(title: "Final", type: "Exams", score: 45, outOf: 50)])
        #expect(book.current == 90)
        #expect(book.pendingWeight == 0)
        #expect(book.need(90) == .secured)
        #expect(book.need(95) == .unreachable(best: 90))
    }

    @Test func anImpossibleTarget() {
        let book = GradeBook(weights: ["Exams": 100], assignments: [
            .init(title: "Midterm", type: "Exams", score: 20), .init(title: "Final", type: "Exams"),
        ])
        #expect(book.need(90) == .unreachable(best: 60))
    }

    @Test func explicitWeightsTakeTheirShareFirst() {
        let book = GradeBook(weights: ["Exams": 60], assignments: [
            .init(title: "Midterm", type: "Exams", score: 70, weight: 20),
            .init(title: "Quiz", type: "Exams", score: 100),
            .init(title: "Final", type: "Exams"),
        ])
        #expect(book.shares == [20, 20, 20])
        #expect(book.secured == 34)
        #expect(book.current == 85)
    }

    @Test func aCustomScale() throws {
        let scale = try GradeScale("HD=85, D=75, C=65, P=50")
        #expect(scale.description == "HD=85,D=75,C=65,P=50")
        #expect(scale.letter(for: 88.57) == "HD")
        #expect(scale.letter(for: 49.9) == "F")
        #expect(scale.minimum(for: "hd") == 85)
        #expect(throws: InputError("cannot read the scale 'A90': use LETTER=PERCENT pairs, e.g. \"A=90,B=80,C=70,D=60\"")) {
            try GradeScale("A90")
        }
    }
}

@Suite("reminder schedule")
struct ReminderScheduleTests {
    let schedule = ReminderSchedule(lateAfter: 60)
    let s: Int64 = 1_000_000_000

    @Test func dueRemindersFireOnceOldestFirstAndLateOnesAreMarked() {
        let reminders = [
            ReminderState(id: 1, remindAt: 1000 * s),
            ReminderState(id: 2, remindAt: 500 * s),
            ReminderState(id: 3, remindAt: 900 * s, remindedAt: 900 * s),
            ReminderState(id: 4, remindAt: 950 * s, doneAt: 10 * s),
            ReminderState(id: 5, remindAt: 2000 * s),
        ]
        let due = schedule.due(reminders, now: 1001 * s)
        #expect(due.map(\.id) == [2, 1])
        #expect(due.map(\.late) == [true, false])
        #expect(schedule.next(reminders, now: 1001 * s) == 2000 * s)
    }

    @Test func aReminderDueBeforeTheDaemonStartedIsLate() {
        let due = schedule.due([ReminderState(id: 7, remindAt: 995 * s)], now: 1000 * s, startedAt: 999 * s)
        #expect(due.map(\.id) == [7])
        #expect(due.map(\.late) == [true])
    }

    @Test func nothingArmedMeansNoWakeUp() {
        #expect(schedule.next([ReminderState(id: 1, remindAt: 5 * s, remindedAt: 5 * s)], now: 0) == nil)
    }
}

@Suite("Grade rounding")
struct GradeRoundingTests {
    @Test func aLetterIsJudgedOnThePercentAsShown() {
        // Given 89.996%, which shows as 90.00
        // When the standard scale gives its letter
        // Then it is the letter for 90, as shown, not B
        #expect(GradeBook.text(89.996) == "90.00")
        #expect(GradeScale.standard.letter(for: 89.996) == "A")
        #expect(GradeScale.standard.letter(for: 89.994) == "B")
    }

    @Test func aTargetReachedAsShownIsSecured() {
        // Given 89.996 points secured, nothing pending
        let book = GradeBook(weights: ["Exams": 100], assignments: [.init(title: "Final", type: "Exams", score: 89.996, outOf: 100)])
        // When an A (90) is asked for, then it is secured, as `course show` says
        #expect(book.need(90) == .secured)
    }
}

@Suite("A course's rules")
struct CourseRulesTests {
    let nav = CourseRecord(course: Course(code: "NAV101", name: "Celestial Navigation"),
                           weights: [(type: "Exams", percent: 60), (type: "Labs", percent: 30)],
                           assignments: [StoredAssignment(id: 1, course: "NAV101",
                                                          assignment: GradeBook.Assignment(title: "Final", type: "Exams", score: nil, outOf: 100, weight: 40))])

    @Test("A code is one word of at most 20 characters, trimmed")
    func codes() throws {
        #expect(try Course.checkedCode("  NAV101 ") == "NAV101")
        #expect(throws: InputError("a course code is one word of at most 20 characters, e.g. NAV101")) { try Course.checkedCode("NAV 101") }
        #expect(throws: InputError("a course code is one word of at most 20 characters, e.g. NAV101")) { try Course.checkedCode(String(repeating: "N", count: 21)) }
    }

    @Test("A weight keeps the course's total at 100 or less and covers the type's explicit weights")
    func weights() throws {
        // An existing type, matched without case, keeps its spelling
        #expect(try nav.checkWeight(type: "labs", percent: 40) == ("labs", "Labs"))
        #expect(try nav.checkWeight(type: "Quizzes", percent: 10) == ("Quizzes", nil))
        #expect(throws: InputError("the weights of NAV101 would total 101%, over 100: they total 90% now (Exams 60, Labs 30)")) {
            try nav.checkWeight(type: "Quizzes", percent: 11)
        }
        #expect(throws: InputError("Exams assignments of NAV101 have explicit weights totalling 40%: the type needs at least that")) {
            try nav.checkWeight(type: "Exams", percent: 39)
        }
        #expect(throws: InputError("a weight is a percent from 0 to 100, not 101")) { try nav.checkWeight(type: "Labs", percent: 101) }
        #expect(throws: InputError("give the assignment type, e.g. Exams")) { try nav.checkWeight(type: " ", percent: 1) }
    }

    @Test("An assignment needs a known type, a score within its scale, and a weight that fits the type")
    func assignments() throws {
        func a(_ type: String, score: Double? = nil, outOf: Double = 100, weight: Double? = nil) -> StoredAssignment {
            StoredAssignment(course: "NAV101", assignment: GradeBook.Assignment(title: "Mid", type: type, score: score, outOf: outOf, weight: weight))
        }
        try nav.check(a("exams", score: 100, weight: 20), replacing: nil)
        #expect(throws: InputError("NAV101 has no assignment type 'Essays': its types are Exams, Labs")) { try nav.check(a("Essays"), replacing: nil) }
        #expect(throws: InputError("score 101 is outside 0…100 (--out-of 100)")) { try nav.check(a("Exams", score: 101), replacing: nil) }
        #expect(throws: InputError("--out-of must be more than 0, not 0")) { try nav.check(a("Exams", outOf: 0), replacing: nil) }
        #expect(throws: InputError("explicit weights of Exams would total 61%, over the type's 60%")) {
            try nav.check(a("Exams", weight: 21), replacing: nil)
        }
        // Replacing the assignment that holds the 40 % frees its share
        try nav.check(a("Exams", weight: 60), replacing: 1)
    }
}

@Suite("A task's edit")
struct TaskEditTests {
    let due = UTCTime(nanosecondsSinceEpoch: 1_800_000_000_000_000_000)
    var task: TaskItem {
        TaskItem(id: 3, title: "Sun sights", due: due, remind: due.adding(nanoseconds: -600_000_000_000),
                 remindedAt: due.adding(nanoseconds: -600_000_000_000), remindedLate: true, course: "NAV101")
    }

    @Test("A new reminder time arms the reminder again; the same time leaves it fired")
    func reminders() throws {
        let earlier = due.adding(nanoseconds: -3_600_000_000_000)
        let moved = try TaskEdit(remind: .some(earlier)).apply(to: task, course: nil)
        #expect(moved.remind == earlier)
        #expect(moved.remindedAt == nil)
        #expect(!moved.remindedLate)
        let same = try TaskEdit(remind: .some(task.remind)).apply(to: task, course: nil)
        #expect(same.remindedAt == task.remindedAt)
    }

    @Test("A title is checked, a course cleared with .some(nil), and a reminder after the due time refused")
    func checks() throws {
        #expect(try TaskEdit(title: "  Moon sights ").apply(to: task, course: .some(nil)) .title == "Moon sights")
        #expect(try TaskEdit().apply(to: task, course: .some(nil)).course == nil)
        #expect(throws: InputError.self) { try TaskEdit(title: " ").apply(to: task, course: nil) }
        let late = due.adding(nanoseconds: 1_000_000_000)
        #expect(throws: InputError("the reminder (\(late.iso8601)) is after the due time (\(due.iso8601)): remind before it, e.g. --remind 30m-before")) {
            try TaskEdit(remind: .some(late)).apply(to: task, course: nil)
        }
    }
}

@Suite("A course as it is kept")
struct CourseCheckTests {
    @Test func itsCodeAndNameAreTrimmed() throws {
        let course = try Course(code: " NAV101 ", name: "  Celestial Navigation ").checked()
        #expect((course.code, course.name) == ("NAV101", "Celestial Navigation"))
    }

    @Test func aBlankNameOrACodeOfTwoWordsIsRefused() {
        #expect(throws: InputError("a course needs a name, e.g. --name \"Celestial Navigation\"")) { try Course(code: "NAV101", name: " ").checked() }
        #expect(throws: InputError("a course code is one word of at most 20 characters, e.g. NAV101")) {
            try Course(code: "NAV 101", name: "Celestial Navigation").checked()
        }
    }
}
