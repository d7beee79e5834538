import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimeStore
import MarkTimeSystem
import MarkTimeTasks
import Testing
@testable import MarkTimeWeb

@Suite("The phone page: tasks and courses")
struct TaskPageTests {
    @Test func aTaskIsAddedInTheHomeZoneWithItsReminder() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let form = "csrf=\(csrf)&title=Star+sights&due=2099-12-01+17%3A00&remind=30m-before&course="
            let r = try await client.execute(uri: "/tasks", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(r.status == .ok)
            #expect(r.text.contains("Added task 1: Star sights, due 2099-12-01 17:00 AEST, reminder 2099-12-01 16:30 AEST."))
            let stored = try t.store.tasks()
            #expect(stored.map(\.due.iso8601) == ["2099-12-01T07:00:00.000Z"])
            #expect(stored.map { $0.remind?.iso8601 } == ["2099-12-01T06:30:00.000Z"])
            #expect(r.text.contains("<li data-id=\"1\" class=\"\">"))
        }
    }

    @Test func aReminderInThePastIsRefusedAndTheFormKept() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let form = "csrf=\(csrf)&title=Log&due=2001-01-01+12%3A00&remind=2001-01-01+11%3A00&course="
            let r = try await client.execute(uri: "/tasks", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("Reminder: 2001-01-01 11:00 AEST has already passed; give a time still to come"))
            #expect(r.text.contains("value=\"2001-01-01 11:00\""))
            #expect(try t.store.tasks().isEmpty)
        }
    }

    @Test func doneTakesATaskOffTheOpenList() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        let id = try t.store.insertTask(title: "Wind the chronometer", due: UTCTime(wholeSeconds: 4_000_000_000), remind: nil, course: nil,
                                     now: UTCTime(nanosecondsSinceEpoch: 0))
        try await t.loggedIn { client, headers, csrf in
            let r = try await client.execute(uri: "/tasks/done", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)&id=\(id)"))
            #expect(r.text.contains("Task \(id) done."))
            #expect(r.text.contains("No open tasks."))
            #expect(try t.store.task(id).doneAt != nil)
            let bad = try await client.execute(uri: "/tasks/done", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)&id=x"))
            #expect(bad.status == .badRequest)
            #expect(bad.text.contains("no task &#39;x&#39;: a task&#39;s id is a whole number"))
        }
    }

    @Test func eachTaskAndPlaceChangeFromThePageRingsTheDaemonOnce() async throws {
        // Given a logged-in page, and the daemon's doorbell beside the store
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        let bell = try Doorbell(path: Doorbell.path(forStore: t.store.path))
        try await t.loggedIn { client, headers, csrf in
            // When a task is added and done, a place added and removed, and a task refused
            func post(_ uri: String, _ form: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)&" + form)).status
            }
            #expect(try await post("/tasks", "title=Log&due=2099-01-01+12%3A00&remind=&course=") == .ok)
            let id = try #require(try t.store.tasks().first?.id)
            #expect(try await post("/tasks/done", "id=\(id)") == .ok)
            #expect(try await post("/places", "name=Home&kind=home&radius=150&position=-27.3807+153.3807") == .ok)
            #expect(try await post("/places/remove", "name=Home") == .ok)
            #expect(try await post("/tasks", "title=&due=2099-01-01+12%3A00&remind=&course=") == .badRequest)
        }
        // Then the reminder thread was told twice and the share service twice, and the refusal told no one
        #expect(bell.drain().map(\.text) == ["tasks", "tasks", "places", "places"])
    }

    @Test func aCourseShowsItsGradeAndWhatAnANeeds() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        // Given the worked example: Exams 60 (Midterm 80, Final pending), Homework 40 (HW1 95)
        try t.store.addCourse(Course(code: "NAV101", name: "Celestial Navigation"))
        try t.store.setWeight(course: "NAV101", type: "Exams", percent: 60)
        try t.store.setWeight(course: "NAV101", type: "Homework", percent: 40)
        for (title, type, score) in [("Midterm", "Exams", 80.0), ("Final", "Exams", nil), ("HW1", "Homework", 95.0)] as [(String, String, Double?)] {
            _ = try t.store.addAssignment(StoredAssignment(course: "NAV101", assignment: GradeBook.Assignment(title: title, type: type, score: score)))
        }
        try await t.loggedIn { client, headers, _ in
            let r = try await client.execute(uri: "/tasks?course=NAV101&target=A", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(r.text.contains("Current <strong class=\"current\">88.57% (B)</strong> · secured 62.00 of 100 · pending 30.00%"))
            #expect(r.text.contains("for A (90%): average 93.33% on the 30.00% still pending (secured 62.00, at best 92.00%)"))
            let bad = try await client.execute(uri: "/tasks?course=NAV101&target=Q", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(bad.text.contains("&#39;Q&#39; is neither a letter of NAV101&#39;s scale (A=90,B=80,C=70,D=60) nor a percent from 0 to 100"))
        }
    }
}
