import Foundation
import Hummingbird
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import MarkTimeTasks

/// The Tasks page: open tasks by due time (add, done, open again, remove) and the courses
/// with their grade and what the pending work needs for a letter or a percent.
struct TaskRoutes {
    let site: Site

    func add(to router: Router<WebContext>) {
        router.get("/tasks") { request, context in
            let q = request.uri.queryParameters
            return try page(context: context, all: q["all"] == "1", need: (q["course"].map(String.init), q["target"].map(String.init)))
        }
        router.post("/tasks") { request, context in try await addTask(request, context: context) }
        router.post("/tasks/done") { request, context in
            try await change(request, context: context) { id in try site.store.setTaskDone(id, at: try site.now()); return "Task \(id) done." }
        }
        router.post("/tasks/undo") { request, context in
            try await change(request, context: context) { id in try site.store.setTaskDone(id, at: nil); return "Task \(id) open again." }
        }
        router.post("/tasks/remove") { request, context in
            try await change(request, context: context) { id in try site.store.removeTask(id); return "Task \(id) removed." }
        }
    }

    /// Task times in the home zone, now.
    func times() throws -> TaskTimes { TaskTimes(now: try site.now().wholeSeconds, zone: try TZDatabase().home(site.settings)) }

    func page(context: WebContext, all: Bool = false, need: (course: String?, target: String?) = (nil, nil), error: String? = nil,
              notice: String? = nil, form: [String: String] = [:], status: HTTPResponse.Status = .ok) throws -> Response {
        var values: [String: Any] = ["form": form, "error": error as Any, "notice": notice as Any, "all": all, "forms": WhenParser.forms]
        do {
            let clock = try times()
            let now = UTCTime(wholeSeconds: clock.now)
            values["tasks"] = try site.store.tasks().filter { all || $0.doneAt == nil }.map { t in
                ["id": t.id, "title": t.title, "due": clock.show(t.due), "course": t.course as Any, "done": t.doneAt != nil,
                 "overdue": t.doneAt == nil && t.due < now,
                 "reminder": t.remind.map { clock.show($0) + (t.remindedAt != nil ? (t.remindedLate ? " (fired late)" : " (fired)") : "") } as Any]
                    as [String: Any]
            }
        } catch {
            values["error"] = "\(error)"
        }
        let courses = try site.store.courses()
        values["courses"] = try courses.map { c -> [String: Any] in
            let r = try site.store.course(c.code)
            let book = r.book
            var v: [String: Any] = [
                "code": c.code, "name": c.name, "scale": c.scale.description,
                "letters": c.scale.letters.map { ["letter": $0.letter, "selected": $0.letter == need.target] as [String: Any] },
                "current": book.current.map { "\(GradeBook.text($0))% (\(c.scale.letter(for: $0)))" } ?? "nothing graded yet",
                "secured": GradeBook.text(book.secured), "pending": GradeBook.text(book.pendingWeight),
                "possible": "\(GradeBook.text(book.possible))% (\(c.scale.letter(for: book.possible)))",
                "unassigned": book.unassignedSentence(code: c.code) as Any,
            ]
            if need.course == c.code, let target = need.target {
                do {
                    let (percent, label) = try c.scale.target(target, course: c.code)
                    v["need"] = book.needSentence(book.need(percent), label: label)
                } catch {
                    v["needError"] = "\(error)"
                }
            }
            return v
        }
        values["courseCodes"] = courses.map { ["code": $0.code, "selected": $0.code == form["course"]] as [String: Any] }
        return try site.pages.page("tasks", title: "Tasks", values, context: context, status: status, section: "/tasks", refresh: "/tasks")
    }

    func addTask(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var title, due, remind, course: String? }
        let f = try await request.decode(as: Form.self, context: context)
        do {
            let clock = try times()
            let due = try clock.due(f.due ?? "", what: "Due")
            let remind = try f.remind.flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }.map { try clock.reminder($0, what: "Reminder", due: due) }
            let course = f.course.flatMap { $0.isEmpty ? nil : $0 }
            let id = try site.store.addTask(title: f.title ?? "", due: due, remind: remind, course: course, now: try site.now())
            return try page(context: context, notice: "Added task \(id): \((f.title ?? "").trimmingWhitespace()), due \(clock.show(due))"
                + (remind.map { ", reminder \(clock.show($0))" } ?? "") + ".")
        } catch {
            let form = ["title": f.title ?? "", "due": f.due ?? "", "remind": f.remind ?? "", "course": f.course ?? ""]
            return try page(context: context, error: "\(error)", form: form, status: .badRequest)
        }
    }

    /// A change to one task by its id (the store rings the daemon to read its reminders again).
    func change(_ request: Request, context: WebContext, _ apply: (Int64) throws -> String) async throws -> Response {
        struct Form: Decodable { var id: String? }
        let text = try await request.decode(as: Form.self, context: context).id ?? ""
        do {
            guard let id = Int64(text) else { throw InputError("no task '\(text)': a task's id is a whole number") }
            let done = try apply(id)
            return try page(context: context, notice: done)
        } catch {
            return try page(context: context, error: "\(error)", status: .badRequest)
        }
    }
}
