import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import MarkTimeTasks

extension TaskTimes {
    /// Now on the wall clock, in the home zone (config home.zone, else the system's).
    init(_ settings: Settings) throws {
        self.init(now: try wallClock().wholeSeconds, zone: try TZDatabase().home(settings))
    }
}

extension AppDatabase {
    /// The tasks of this store, each change ringing its daemon.
    var taskList: TaskList<AppDatabase> { TaskList(self, bell: StoreDoorbell(store: path)) }
}

extension UTCTime {
    /// ISO-8601 UTC to the second: `2026-11-27T07:00:00Z`.
    var isoSeconds: String { String(iso8601.prefix(19)) + "Z" }
}

extension MarkTime {
    struct TaskCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "task",
            abstract: "Tasks with deadlines; the daemon chimes each reminder when it falls due.",
            discussion: """
                Examples:
                  marktime task add "Star sights for the log" --due "fri 17:00" --remind 30m-before
                  marktime task add "Submit plotting sheet" --due 2026-12-01T09:00Z --course NAV101
                  marktime task add "Wind the chronometer" --due "tomorrow 08:00" --remind "tomorrow 07:55"
                  marktime task list --overdue
                WHEN is one of: \(WhenParser.forms). \
                Local times are in the home zone (config home.zone, else the system's).
                """,
            subcommands: [Add.self, List.self, Done.self, Undo.self, Remove.self, Edit.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a task.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "What to do.") var title: String
            @Option(help: ArgumentHelp("When it is due.", valueName: "when")) var due: String
            @Option(help: ArgumentHelp("When to chime: a time, or e.g. 30m-before.", valueName: "when")) var remind: String?
            @Option(help: ArgumentHelp("The course it belongs to.", valueName: "code")) var course: String?

            func run() async throws {
                let clock = try TaskTimes(try config.settings())
                let dueAt = try clock.due(due, what: "--due")
                let remindAt = try remind.map { try clock.reminder($0, what: "--remind", due: dueAt) }
                let db = try store.open()
                let id = try db.taskList.add(title: title, due: dueAt, remind: remindAt, course: course, now: try wallClock())
                print("added task \(id): \(Text.escaped(title.trimmingWhitespace())), due \(clock.show(dueAt))"
                    + (remindAt.map { ", reminder \(clock.show($0))" } ?? ""))
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "Open tasks, soonest due first; overdue ones are marked.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Flag(help: "Include done tasks.") var all = false
            @Flag(help: "Only open tasks past their due time.") var overdue = false
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let clock = try TaskTimes(try config.settings())
                let now = UTCTime(wholeSeconds: clock.now)
                let tasks = try store.openForReading().tasks().filter { t in
                    (all || t.doneAt == nil) && (!overdue || (t.doneAt == nil && t.due < now))
                }
                switch format {
                case .json:
                    print(JSON.array(tasks.map { t in
                        .object([("id", .int(t.id)), ("title", .string(t.title)), ("due", .string(t.due.isoSeconds)),
                                 ("remind", JSON.from(t.remind?.isoSeconds)), ("reminded_at", JSON.from(t.remindedAt?.isoSeconds)),
                                 ("reminded_late", .bool(t.remindedLate)), ("done_at", JSON.from(t.doneAt?.isoSeconds)),
                                 ("course", JSON.from(t.course)), ("overdue", .bool(t.doneAt == nil && t.due < now))])
                    }).render())
                case .table:
                    guard !tasks.isEmpty else {
                        print(overdue ? "nothing overdue" : "no open tasks: `marktime task add TITLE --due WHEN`")
                        return
                    }
                    print(TextTable(header: ["ID", "DUE", "TITLE", "REMINDER", "COURSE", "STATE"], rows: tasks.map { t in
                        let state = t.doneAt != nil ? "done" : t.due < now ? "OVERDUE" : ""
                        let reminder = t.remind.map { clock.show($0) + (t.remindedAt != nil ? (t.remindedLate ? " (fired late)" : " (fired)") : "") } ?? ""
                        return ["\(t.id)", clock.show(t.due), t.title, reminder, t.course ?? "", state]
                    }).render())
                }
            }
        }

        struct Done: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark a task done; its reminder will not fire.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The task's id.") var id: Int64

            func run() async throws {
                let db = try store.open()
                try db.taskList.setDone(id, at: try wallClock())
                print("task \(id) done")
            }
        }

        struct Undo: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "undo", abstract: "Open a done task again.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The task's id.") var id: Int64

            func run() async throws {
                let db = try store.open()
                try db.taskList.setDone(id, at: nil)
                print("task \(id) open again")
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a task.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The task's id.") var id: Int64

            func run() async throws {
                let db = try store.open()
                try db.taskList.remove(id)
                print("task \(id) removed")
            }
        }

        struct Edit: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "edit",
                abstract: "Change a task's title, due time, reminder or course.",
                discussion: "  marktime task edit 3 --due \"fri 18:00\" --remind 1h-before\n  marktime task edit 3 --remind none --course none")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The task's id.") var id: Int64
            @Option(help: "A new title.") var title: String?
            @Option(help: ArgumentHelp("A new due time.", valueName: "when")) var due: String?
            @Option(help: ArgumentHelp("A new reminder (fires again), or none.", valueName: "when")) var remind: String?
            @Option(help: ArgumentHelp("A course code, or none.", valueName: "code")) var course: String?

            func run() async throws {
                guard title != nil || due != nil || remind != nil || course != nil else {
                    throw ValidationError("nothing to change: give --title, --due, --remind or --course")
                }
                let clock = try TaskTimes(try config.settings())
                let db = try store.open()
                let old = try db.task(id)
                var edit = TaskEdit(title: title)
                if let due { edit.due = try clock.due(due, what: "--due") }
                if let remind {
                    edit.remind = .some(remind.lowercased() == "none" ? nil : try clock.reminder(remind, what: "--remind", due: edit.due ?? old.due))
                }
                if let course { edit.course = .some(course.lowercased() == "none" ? nil : course) }
                let t = try db.taskList.edit(id, edit)
                print("task \(t.id): \(Text.escaped(t.title)), due \(clock.show(t.due))" + (t.remind.map { ", reminder \(clock.show($0))" } ?? ""))
            }
        }
    }
}
