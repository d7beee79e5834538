import Foundation
import RigSupport
import Testing

@Suite("marktime task")
struct TaskCLITests {
    let cli = CLI()

    init() throws {
        let r = try cli.run(["config", "set", "home.zone", "Australia/Brisbane"], storeFlag: false)
        precondition(r.status == 0, r.stderr)
    }

    @Test func addAndListAsJSON() throws {
        // Given a task due at a fixed time in the home zone, with a reminder before it
        let r = try cli.run(["task", "add", "Plotting sheet", "--due", "2099-12-01 09:00", "--remind", "30m-before"])
        #expect(r.stdout == "added task 1: Plotting sheet, due 2099-12-01 09:00 AEST, reminder 2099-12-01 08:30 AEST\n", "\(r.stderr)")
        // Then the JSON listing carries UTC times and the open state
        let list = try cli.json(["task", "list"]) as? [[String: Any]] ?? []
        #expect(list.count == 1)
        #expect(list.first?["id"] as? Int == 1)
        #expect(list.first?["due"] as? String == "2099-11-30T23:00:00Z")
        #expect(list.first?["remind"] as? String == "2099-11-30T22:30:00Z")
        #expect(list.first?["reminded_at"] is NSNull)
        #expect(list.first?["done_at"] is NSNull)
        #expect(list.first?["course"] is NSNull)
    }

    @Test func openTasksSoonestFirstWithOverdueMarked() throws {
        _ = try cli.run(["task", "add", "Later", "--due", "2099-01-02T00:00Z"])
        _ = try cli.run(["task", "add", "Missed", "--due", "2020-01-01T00:00Z"])
        _ = try cli.run(["task", "add", "Done", "--due", "2099-01-01T00:00Z"])
        #expect(try cli.run(["task", "done", "3"]).status == 0)
        let open = try cli.json(["task", "list"]) as? [[String: Any]] ?? []
        #expect(open.map { $0["title"] as? String } == ["Missed", "Later"])
        #expect(open.map { $0["overdue"] as? Bool } == [true, false])
        #expect((try cli.json(["task", "list", "--overdue"]) as? [[String: Any]])?.map { $0["title"] as? String } == ["Missed"])
        #expect((try cli.json(["task", "list", "--all"]) as? [[String: Any]])?.count == 3)
        #expect(try cli.run(["task", "undo", "3"]).status == 0)
        #expect((try cli.json(["task", "list"]) as? [[String: Any]])?.count == 3)
    }

    @Test func aReminderAfterTheDueTimeIsRefused() throws {
        let r = try cli.run(["task", "add", "Sights", "--due", "2099-12-01T09:00Z", "--remind", "2099-12-01T10:00Z"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: the reminder (2099-12-01T10:00:00.000Z) is after the due time (2099-12-01T09:00:00.000Z)"), "\(r.stderr)")
        #expect((try cli.json(["task", "list", "--all"]) as? [[String: Any]])?.count == 0)
    }

    @Test func aMalformedTimeShowsTheAcceptedForms() throws {
        let r = try cli.run(["task", "add", "Sights", "--due", "2099-02-30 10:00"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: --due: cannot read the time '2099-02-30 10:00': use 2026-11-21T17:00Z (ISO-8601 with Z or +10:00), 2026-11-21 17:00 (home zone), today 17:00, tomorrow 09:00, fri 17:00, +2h, +1h30m, +20s, or 30m-before (reminders only)\n")
    }

    @Test func editingTheReminderArmsItAgain() throws {
        _ = try cli.run(["task", "add", "Sights", "--due", "2099-12-01T09:00Z", "--remind", "2099-12-01T08:00Z"])
        let r = try cli.run(["task", "edit", "1", "--title", "Noon sight", "--remind", "1h30m-before"])
        #expect(r.stdout == "task 1: Noon sight, due 2099-12-01 19:00 AEST, reminder 2099-12-01 17:30 AEST\n", "\(r.stderr)")
        #expect((try cli.json(["task", "list"]) as? [[String: Any]])?.first?["remind"] as? String == "2099-12-01T07:30:00Z")
    }

    @Test func removeDeletesTheTask() throws {
        _ = try cli.run(["task", "add", "Sights", "--due", "2099-12-01T09:00Z"])
        #expect(try cli.run(["task", "remove", "1"]).stdout == "task 1 removed\n")
        #expect((try cli.json(["task", "list", "--all"]) as? [[String: Any]])?.count == 0)
    }

    @Test func anUnknownIdIsRefused() throws {
        let r = try cli.run(["task", "done", "9"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: no task with id 9: `marktime task list --all` lists them\n")
    }
}

@Suite("marktime course and grade")
struct CourseCLITests {
    let cli = CLI()

    /// The worked example: Exams 60 (Midterm 80, Final pending), Homework 40 (HW1 95).
    func workedExample() throws {
        for args in [["course", "add", "NAV101", "--name", "Celestial Navigation"],
                     ["course", "weight", "NAV101", "Exams", "60"], ["course", "weight", "NAV101", "Homework", "40"],
                     ["grade", "add", "NAV101", "Midterm", "--type", "Exams", "--score", "80"],
                     ["grade", "add", "NAV101", "Final", "--type", "exams"],
                     ["grade", "add", "NAV101", "HW1", "--type", "Homework", "--score", "95"]] {
            let r = try cli.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
    }

    @Test func theWorkedExample() throws {
        try workedExample()
        let show = try cli.json(["course", "show", "NAV101"]) as? [String: Any] ?? [:]
        #expect(String(format: "%.2f", show["current"] as? Double ?? 0) == "88.57")
        #expect(show["letter"] as? String == "B")
        #expect(show["secured"] as? Double == 62)
        #expect(show["graded_weight"] as? Double == 70)
        let exams = (show["types"] as? [[String: Any]])?.first?["assignments"] as? [[String: Any]] ?? []
        #expect(exams.map { $0["share"] as? Double } == [30, 30])
        let need = try cli.json(["course", "need", "NAV101", "A"]) as? [String: Any] ?? [:]
        #expect(String(format: "%.2f", need["needed"] as? Double ?? 0) == "93.33")
        #expect(need["pending_weight"] as? Double == 30)
        #expect(need["secured"] as? Double == 62)
        #expect(need["possible"] as? Double == 92)
        #expect(try cli.run(["course", "need", "NAV101", "A"]).stdout
                == "for A (90%): average 93.33% on the 30.00% still pending (secured 62.00, at best 92.00%)\n")
    }

    @Test func anUnreachableTargetIsSaidPlainly() throws {
        try workedExample()
        #expect(try cli.run(["course", "need", "NAV101", "95"]).stdout == "95% can no longer be reached: the best possible is 92.00% of the final grade\n")
    }

    @Test func weightsUnder100AreReportedAlikeByShowAndNeed() throws {
        // Given a course whose only type carries 60% of the final grade, fully graded at 100%
        for args in [["course", "add", "MET1", "--name", "Meteorology"], ["course", "weight", "MET1", "Exams", "60"],
                     ["grade", "add", "MET1", "Exam", "--type", "Exams", "--score", "100"]] {
            #expect(try cli.run(args).status == 0)
        }
        // When both commands are asked
        let show = try cli.run(["course", "show", "MET1"]).stdout.split(separator: "\n").map(String.init)
        let need = try cli.run(["course", "need", "MET1", "A"]).stdout
        // Then show's grade says what it is of, and both name the unassigned 40%
        let unassigned = "weights   the types total 60.00% of the final grade, so 40.00% can never be earned until `marktime course weight MET1 TYPE PERCENT` assigns it"
        #expect(show.suffix(4) == [
            "current   100.00% (A) of the work graded so far: 60.00 of 60.00 graded points",
            "secured   60.00 points of the final grade's 100",
            "pending   0.00% of the final grade still to earn; at best 60.00% (D) of the final grade",
            unassigned])
        #expect(need == "A (90%) can no longer be reached: the best possible is 60.00% of the final grade\n" + unassigned + "\n")
    }

    @Test func aSecuredTargetIsSaidPlainly() throws {
        try workedExample()
        #expect(try cli.run(["course", "need", "NAV101", "D"]).stdout == "D (60%) is already secured: 62.00 points are in\n")
    }

    @Test func weightsOver100AreRefusedWithTheTotal() throws {
        try workedExample()
        let r = try cli.run(["course", "weight", "NAV101", "Labs", "10"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: the weights of NAV101 would total 110%, over 100: they total 100% now (Exams 60, Homework 40)\n")
    }

    @Test func anUnknownTypeIsRefused() throws {
        try workedExample()
        let r = try cli.run(["grade", "add", "NAV101", "Quiz 1", "--type", "Quizzes", "--score", "9", "--out-of", "10"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: NAV101 has no assignment type 'Quizzes': its types are Exams, Homework\n")
    }

    @Test func aScoreOutsideItsRangeIsRefused() throws {
        try workedExample()
        let over = try cli.run(["grade", "add", "NAV101", "HW2", "--type", "Homework", "--score", "21", "--out-of", "20"])
        #expect(over.stderr == "Error: score 21 is outside 0…20 (--out-of 20)\n")
        let negative = try cli.run(["grade", "edit", "3", "--score=-1"])
        #expect(negative.stderr == "Error: score -1 is outside 0…100 (--out-of 100)\n")
        let show = try cli.json(["course", "show", "NAV101"]) as? [String: Any] ?? [:]
        #expect(show["secured"] as? Double == 62)
    }

    @Test func aCustomScaleGivesItsLetters() throws {
        try workedExample()
        _ = try cli.run(["course", "add", "NAV102", "--name", "Coastal", "--scale", "HD=85,D=75,C=65,P=50"])
        _ = try cli.run(["course", "weight", "NAV102", "Exams", "100"])
        _ = try cli.run(["grade", "add", "NAV102", "Final", "--type", "Exams", "--score", "43", "--out-of", "50"])
        let show = try cli.json(["course", "show", "NAV102"]) as? [String: Any] ?? [:]
        #expect(show["current"] as? Double == 86)
        #expect(show["letter"] as? String == "HD")
    }

    @Test func gradeRemoveAndCourseRemove() throws {
        try workedExample()
        #expect(try cli.run(["grade", "remove", "2"]).stdout == "removed assignment 2\n")
        let show = try cli.json(["course", "show", "NAV101"]) as? [String: Any] ?? [:]
        #expect(show["pending_weight"] as? Double == 0)
        let refused = try cli.run(["course", "remove", "NAV101"])
        #expect(refused.stderr == "Error: Delete NAV101 and its 2 grades: no terminal to confirm on; add --yes to delete without asking\n")
        #expect(try cli.run(["course", "remove", "NAV101", "--yes"]).stdout == "removed NAV101\n")
        #expect((try cli.json(["course", "list"]) as? [Any])?.count == 0)
    }

    @Test func gradeEditPendingAgain() throws {
        try workedExample()
        #expect(try cli.run(["grade", "edit", "1", "--score", "none"]).stdout == "NAV101 #1: Midterm (Exams), pending\n")
        let show = try cli.json(["course", "show", "NAV101"]) as? [String: Any] ?? [:]
        #expect(show["secured"] as? Double == 38)
        #expect(show["pending_weight"] as? Double == 60)
    }
}
