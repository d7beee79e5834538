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
            try await change(request, context: context) { id in try site.tasks.setDone(id, at: try site.now()); return "Task \(id) done." }
        }
        router.post("/tasks/undo") { request, context in
            try await change(request, context: context) { id in try site.tasks.setDone(id, at: nil); return "Task \(id) open again." }
        }
        router.post("/tasks/remove") { request, context in
            try await change(request, context: context) { id in try site.tasks.remove(id); return "Task \(id) removed." }
        }
    }

    /// Task times in the home zone, now.
    func times() throws -> TaskTimes { TaskTimes(now: try site.now().wholeSeconds, zone: try TZDatabase().home(site.settings)) }

    func page(context: WebContext, all: Bool = false, need: (course: String?, target: String?) = (nil, nil), error: String? = nil,
              notice: String? = nil, form: TasksView.Form = .init(), status: HTTPResponse.Status = .ok) throws -> Response {
        var view = TasksView(form: form, error: error, notice: notice, all: all)
        do {
            let clock = try times()
            let now = UTCTime(wholeSeconds: clock.now)
            view.tasks = try site.store.tasks().filter { all || $0.doneAt == nil }.map { t in
                .init(id: t.id, title: t.title, due: clock.show(t.due), course: t.course, done: t.doneAt != nil, overdue: t.doneAt == nil && t.due < now,
                      reminder: t.remind.map { clock.show($0) + (t.remindedAt != nil ? (t.remindedLate ? " (fired late)" : " (fired)") : "") })
            }
        } catch {
            view.error = "\(error)"
        }
        let courses = try site.store.courses()
        view.courses = try courses.map { c in
            let book = try site.store.course(c.code).book
            var v = TasksView.Course(
                code: c.code, name: c.name, scale: c.scale.description,
                letters: c.scale.letters.map { .init(letter: $0.letter, selected: $0.letter == need.target) },
                current: book.current.map { "\(GradeBook.text($0))% (\(c.scale.letter(for: $0)))" } ?? "nothing graded yet",
                secured: GradeBook.text(book.secured), pending: GradeBook.text(book.pendingWeight),
                possible: "\(GradeBook.text(book.possible))% (\(c.scale.letter(for: book.possible)))",
                unassigned: book.unassignedSentence(code: c.code))
            if need.course == c.code, let target = need.target {
                do {
                    let (percent, label) = try c.scale.target(target, course: c.code)
                    v.need = book.needSentence(book.need(percent), label: label)
                } catch {
                    v.needError = "\(error)"
                }
            }
            return v
        }
        view.courseCodes = courses.map { .init(code: $0.code, selected: $0.code == form.course) }
        return try site.pages.page("tasks", title: "Tasks", view, context: context, status: status, section: "/tasks", refresh: "/tasks")
    }

    func addTask(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var title, due, remind, course: String? }
        let f = try await request.decode(as: Form.self, context: context)
        do {
            let clock = try times()
            let due = try clock.due(f.due ?? "", what: "Due")
            let remind = try f.remind.flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }.map { try clock.reminder($0, what: "Reminder", due: due) }
            let course = f.course.flatMap { $0.isEmpty ? nil : $0 }
            let id = try site.tasks.add(title: f.title ?? "", due: due, remind: remind, course: course, now: try site.now())
            return try page(context: context, notice: "Added task \(id): \((f.title ?? "").trimmingWhitespace()), due \(clock.show(due))"
                + (remind.map { ", reminder \(clock.show($0))" } ?? "") + ".")
        } catch {
            let form = TasksView.Form(title: f.title ?? "", due: f.due ?? "", remind: f.remind ?? "", course: f.course ?? "")
            return try page(context: context, error: "\(error)", form: form, status: .badRequest)
        }
    }

    /// A change to one task by its id (`TaskList` rings the daemon to read its reminders again).
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

/// The Tasks page: the tasks (open, or all), each course's grades and what a grade needs,
/// and the form to add a task (again as typed after a refusal).
struct TasksView: Encodable {
    struct Form: Encodable {
        var title, due, remind, course: String?
    }

    struct Task: Encodable {
        var id: Int64
        var title, due: String
        var course: String?
        var done, overdue: Bool
        var reminder: String?
    }

    struct Letter: Encodable {
        var letter: String
        var selected: Bool
    }

    struct Course: Encodable {
        var code, name, scale: String
        var letters: [Letter]
        var current, secured, pending, possible: String
        var unassigned: String?
        var need, needError: String?
    }

    struct Code: Encodable {
        var code: String
        var selected: Bool
    }

    var form: Form
    var error, notice: String?
    var all: Bool
    var forms = WhenParser.forms
    var tasks: [Task]?
    var courses: [Course] = []
    var courseCodes: [Code] = []
}
