import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeStore
import MarkTimeTasks

/// Two decimals: `88.57`.
func twoDecimals(_ v: Double) -> String { GradeBook.text(v) }

/// The line both `course show` and `course need` print when the types' weights leave part
/// of the final grade unassigned.
func unassignedLine(_ book: GradeBook, code: String) -> String? {
    book.unassignedSentence(code: code).map { "weights   " + $0 }
}

/// A number option that also takes `none` (to clear it).
enum Clearable<T: LosslessStringConvertible & Sendable>: ExpressibleByArgument, Sendable {
    case value(T), none

    init?(argument: String) {
        if argument.lowercased() == "none" {
            self = .none
        } else if let v = T(argument), T.self != Double.self || Quantity.decimal(argument) != nil {
            self = .value(v)
        } else {
            return nil
        }
    }

    var value: T? { if case .value(let v) = self { v } else { nil } }
}

extension MarkTime {
    struct CourseCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "course",
            abstract: "Courses and their grade breakdown: what is secured, and what the rest needs.",
            discussion: """
                Example, the worked one:
                  marktime course add NAV101 --name "Celestial Navigation"
                  marktime course weight NAV101 Exams 60
                  marktime course weight NAV101 Homework 40
                  marktime grade add NAV101 Midterm --type Exams --score 80
                  marktime grade add NAV101 Final --type Exams
                  marktime grade add NAV101 HW1 --type Homework --score 95
                  marktime course show NAV101     (current 88.57%, B: 62 of the 70 graded points)
                  marktime course need NAV101 A   (the Final needs 93.33%)
                Within a type, each assignment's share is the type's weight divided equally, after any \
                set with --weight. A type with no assignments yet counts as work still to come.
                """,
            subcommands: [Add.self, List.self, Remove.self, Weight.self, Show.self, Need.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a course.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Its code, one word: NAV101.") var code: String
            @Option(help: "Its name.") var name: String
            @Option(help: "Letter grades and their lowest percent.") var scale = "A=90,B=80,C=70,D=60"

            func run() async throws {
                let course = try Course(code: code, name: name, scale: try GradeScale(scale)).checked()
                try store.open().addCourse(course)
                print("added \(Text.escaped(course.code)): \(Text.escaped(course.name)), scale \(course.scale)")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "The courses, with their current grade.")
            @OptionGroup var store: StoreOptions
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let db = try store.openForReading()
                let records = try db.courses().map { try db.course($0.code) }
                switch format {
                case .json:
                    print(JSON.array(records.map { r in
                        .object([("code", .string(r.course.code)), ("name", .string(r.course.name)), ("scale", .string(r.course.scale.description)),
                                 ("current", JSON.from(r.book.current)), ("letter", JSON.from(r.book.current.map(r.course.scale.letter)))])
                    }).render())
                case .table:
                    guard !records.isEmpty else { print("no courses yet: `marktime course add CODE --name NAME`"); return }
                    print(TextTable(header: ["CODE", "NAME", "CURRENT", "SCALE"], rows: records.map { r in
                        [r.course.code, r.course.name, r.book.current.map { "\(twoDecimals($0))% (\(r.course.scale.letter(for: $0)))" } ?? "nothing graded",
                         r.course.scale.description]
                    }).render())
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a course with its weights and grades.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Its code.") var code: String
            @Flag(help: "Do not ask.") var yes = false

            func run() async throws {
                let db = try store.open()
                let record = try db.course(code)
                if !yes, try !confirm("Delete \(record.course.code) and its \(record.assignments.count) grades?",
                                      hint: "add --yes to delete without asking") {
                    print("kept \(Text.escaped(record.course.code))")
                    return
                }
                try db.removeCourse(code)
                print("removed \(Text.escaped(record.course.code))")
            }
        }

        struct Weight: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "weight", abstract: "Set an assignment type's share of the final grade, in percent.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The course.") var code: String
            @Argument(help: "The type: Exams, Homework…") var type: String
            /// Every leftover word, so that a negative number reaches the weight rule.
            @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Its percent of the final grade.", valueName: "percent")) var words: [String] = []

            var percent: Double {
                get throws {
                    guard words.count == 1 else { throw ValidationError("give one percent, e.g. `marktime course weight NAV101 Exams 60`") }
                    guard let p = Quantity.decimal(words[0]) else { throw InputError("a weight is a percent from 0 to 100, not '\(words[0])'") }
                    return p
                }
            }

            func run() async throws {
                let db = try store.open()
                try db.setWeight(course: code, type: type, percent: try percent)
                let r = try db.course(code)
                print("\(Text.escaped(r.course.code)): \(r.weights.map { "\($0.type) \(Position.plain($0.percent))%" }.joined(separator: ", ")) (total \(Position.plain(r.totalWeight))%)")
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "The breakdown: types, assignments and their shares, the current grade.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The course.") var code: String
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let r = try store.openForReading().course(code)
                let book = r.book
                let shares = book.shares
                let rows = Array(zip(r.assignments, shares))
                switch format {
                case .json:
                    print(JSON.object([
                        ("code", .string(r.course.code)), ("name", .string(r.course.name)), ("scale", .string(r.course.scale.description)),
                        ("types", .array(r.weights.map { w in
                            .object([("type", .string(w.type)), ("weight", .number(w.percent)),
                                     ("assignments", .array(rows.filter { $0.0.assignment.type == w.type }.map { a, share in
                                         .object([("id", JSON.from(a.id)), ("title", .string(a.assignment.title)),
                                                  ("score", JSON.from(a.assignment.score)), ("out_of", .number(a.assignment.outOf)),
                                                  ("share", .number(share)),
                                                  ("points", JSON.from(a.assignment.score.map { $0 / a.assignment.outOf * share })),
                                                  ("due", JSON.from(a.due?.isoSeconds)), ("class_average", JSON.from(a.classAverage))])
                                     }))])
                        })),
                        ("current", JSON.from(book.current)), ("letter", JSON.from(book.current.map(r.course.scale.letter))),
                        ("secured", .number(book.secured)), ("graded_weight", .number(book.gradedWeight)),
                        ("pending_weight", .number(book.pendingWeight)), ("possible", .number(book.possible)),
                        ("total_weight", .number(book.totalWeight)), ("unassigned_weight", .number(book.unassignedWeight)),
                    ]).render())
                case .table:
                    print("\(Text.escaped(r.course.code))  \(Text.escaped(r.course.name))  (scale \(r.course.scale))")
                    if r.weights.isEmpty { print("no assignment types yet: `marktime course weight \(r.course.code) Exams 60`") }
                    var table = TextTable(header: ["", "ID", "TITLE", "SCORE", "SHARE", "POINTS", "CLASS AVG"])
                    for w in r.weights {
                        table.rows.append([w.type, "", "", "", "\(Position.plain(w.percent))%", "", ""])
                        for (a, share) in rows where a.assignment.type == w.type {
                            let x = a.assignment
                            table.rows.append(["", "\(a.id ?? 0)", x.title,
                                               x.score.map { "\(Position.plain($0))/\(Position.plain(x.outOf))" } ?? "pending",
                                               "\(twoDecimals(share))%", x.score.map { twoDecimals($0 / x.outOf * share) } ?? "",
                                               a.classAverage.map { "\(Position.plain($0))/\(Position.plain(x.outOf))" } ?? ""])
                        }
                    }
                    if !r.weights.isEmpty { print(table.render()) }
                    print("current   " + (book.current.map { "\(twoDecimals($0))% (\(r.course.scale.letter(for: $0))) of the work graded so far: \(twoDecimals(book.secured)) of \(twoDecimals(book.gradedWeight)) graded points" } ?? "nothing graded yet"))
                    print("secured   \(twoDecimals(book.secured)) points of the final grade's 100")
                    print("pending   \(twoDecimals(book.pendingWeight))% of the final grade still to earn; at best \(twoDecimals(book.possible))% (\(r.course.scale.letter(for: book.possible))) of the final grade")
                    if let line = unassignedLine(book, code: r.course.code) { print(line) }
                }
            }
        }

        struct Need: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "need",
                abstract: "What the pending work must average to reach a letter or a percent.",
                discussion: "  marktime course need NAV101 A\n  marktime course need NAV101 85")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The course.") var code: String
            @Argument(help: "A letter of the scale, or a percent.") var target: String
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let r = try store.openForReading().course(code)
                let (percent, label) = try r.course.scale.target(target, course: r.course.code)
                let book = r.book
                let need = book.need(percent)
                switch format {
                case .json:
                    let (status, needed): (String, Double?) = switch need {
                    case .needs(let p): ("needs", p)
                    case .secured: ("secured", nil)
                    case .unreachable: ("unreachable", nil)
                    }
                    print(JSON.object([("target", .number(percent)), ("status", .string(status)), ("needed", JSON.from(needed)),
                                       ("pending_weight", .number(book.pendingWeight)), ("secured", .number(book.secured)),
                                       ("possible", .number(book.possible)), ("unassigned_weight", .number(book.unassignedWeight))]).render())
                case .table:
                    print(book.needSentence(need, label: label))
                    if let line = unassignedLine(book, code: r.course.code) { print(line) }
                }
            }
        }
    }

    struct GradeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grade",
            abstract: "Assignments of a course: graded, or pending until they have a score.",
            discussion: """
                  marktime grade add NAV101 Midterm --type Exams --score 80
                  marktime grade add NAV101 "Sight reduction" --type Homework --score 18 --out-of 20 --class-average 15
                  marktime grade add NAV101 Final --type Exams --due 2026-12-10T09:00Z
                  marktime grade edit 2 --score 88
                `marktime course show CODE` lists the ids.
                """,
            subcommands: [Add.self, Edit.self, Remove.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Record an assignment.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The course.") var code: String
            @Argument(help: "The assignment.") var title: String
            @Option(help: "Its type, one with a weight.") var type: String
            @Option(parsing: .unconditional, help: "The score; leave out while pending.", transform: decimal) var score: Double?
            @Option(name: .customLong("out-of"), parsing: .unconditional, help: "What the score is out of.", transform: decimal) var outOf: Double = 100
            @Option(parsing: .unconditional, help: "Its own share of the final grade, in percent.", transform: decimal) var weight: Double?
            @Option(help: ArgumentHelp("When it is due.", valueName: "when")) var due: String?
            @Option(name: .customLong("class-average"), parsing: .unconditional, help: "The class average, out of the same.", transform: decimal) var classAverage: Double?

            func run() async throws {
                let dueAt = try due.map { try TaskTimes(try config.settings()).due($0, what: "--due") }
                let a = StoredAssignment(course: code, assignment: GradeBook.Assignment(title: title.trimmingWhitespace(), type: type, score: score,
                                                                                      outOf: outOf, weight: weight),
                                         due: dueAt, classAverage: classAverage)
                let db = try store.open()
                let id = try db.addAssignment(a)
                let stored = try db.assignment(id)
                print("added \(Text.escaped(stored.course)) #\(id): \(Text.escaped(stored.assignment.title)) (\(Text.escaped(stored.assignment.type))), "
                    + (score.map { "\(Position.plain($0))/\(Position.plain(outOf))" } ?? "pending"))
            }
        }

        struct Edit: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change an assignment; `--score none` makes it pending again.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The assignment's id.") var id: Int64
            @Option(help: "A new title.") var title: String?
            @Option(help: "A new type.") var type: String?
            @Option(parsing: .unconditional, help: "A new score, or none.") var score: Clearable<Double>?
            @Option(name: .customLong("out-of"), parsing: .unconditional, help: "What the score is out of.", transform: decimal) var outOf: Double?
            @Option(parsing: .unconditional, help: "Its own share, or none to share the type's weight equally.") var weight: Clearable<Double>?
            @Option(help: ArgumentHelp("When it is due.", valueName: "when")) var due: String?
            @Option(name: .customLong("class-average"), parsing: .unconditional, help: "The class average, or none.") var classAverage: Clearable<Double>?

            func run() async throws {
                let dueAt = try due.map { try TaskTimes(try config.settings()).due($0, what: "--due") }
                let a = try store.open().editAssignment(id) { a in
                    if let title { a.assignment.title = title.trimmingWhitespace() }
                    if let type { a.assignment.type = type }
                    if let score { a.assignment.score = score.value }
                    if let outOf { a.assignment.outOf = outOf }
                    if let weight { a.assignment.weight = weight.value }
                    if let dueAt { a.due = dueAt }
                    if let classAverage { a.classAverage = classAverage.value }
                }
                print("\(Text.escaped(a.course)) #\(id): \(Text.escaped(a.assignment.title)) (\(Text.escaped(a.assignment.type))), "
                    + (a.assignment.score.map { "\(Position.plain($0))/\(Position.plain(a.assignment.outOf))" } ?? "pending"))
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete an assignment.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The assignment's id.") var id: Int64

            func run() async throws {
                try store.open().removeAssignment(id)
                print("removed assignment \(id)")
            }
        }
    }
}
