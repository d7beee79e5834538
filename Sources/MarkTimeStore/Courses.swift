import GRDB
import MarkTimeCore
import MarkTimeTasks

extension AppDatabase {
    public func addCourse(_ course: Course) throws(StoreError) {
        let code = course.code.trimmingWhitespace()
        guard !code.isEmpty, !code.contains(where: \.isWhitespace), !code.unicodeScalars.contains(where: Text.isControl), code.count <= 20 else {
            throw .refused("a course code is one word of at most 20 characters, e.g. NAV101")
        }
        let name = try StoreError.name(course.name, what: "a course", example: "--name \"Celestial Navigation\"")
        try write { db in
            if let other = try String.fetchOne(db, sql: "SELECT code FROM course WHERE code = ?", arguments: [code]) {
                throw StoreError.refused("course \(other) already exists; `marktime course remove \(other)` first to replace it")
            }
            try db.execute(sql: "INSERT INTO course (code, name, scale) VALUES (?, ?, ?)", arguments: [code, name, course.scale.description])
        }
    }

    public func courses() throws(StoreError) -> [Course] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM course ORDER BY code").map(Self.course) }
    }

    static func course(_ row: Row) -> Course {
        Course(code: row["code"], name: row["name"], scale: (try? GradeScale(row["scale"])) ?? .standard)
    }

    /// Removes a course with its weights and assignments; its tasks keep their title.
    public func removeCourse(_ code: String) throws(StoreError) {
        try write { db in
            let code = try Self.courseCode(code, db)
            try db.execute(sql: "DELETE FROM course WHERE code = ?", arguments: [code])
            try db.execute(sql: "UPDATE task SET course = NULL WHERE course = ?", arguments: [code])
        }
    }

    public func course(_ code: String) throws(StoreError) -> CourseRecord {
        try read { db in try Self.record(try Self.courseCode(code, db), db) }
    }

    static func record(_ code: String, _ db: Database) throws -> CourseRecord {
        let course = try Row.fetchOne(db, sql: "SELECT * FROM course WHERE code = ?", arguments: [code]).map(Self.course)!
        let weights = try Row.fetchAll(db, sql: "SELECT type, percent FROM course_weight WHERE course = ? ORDER BY rowid", arguments: [code])
            .map { (type: $0["type"] as String, percent: $0["percent"] as Double) }
        // Types compare without case; an assignment carries its type as the weight spells it.
        func type(_ name: String) -> String { weights.first { $0.type.lowercased() == name.lowercased() }?.type ?? name }
        let assignments = try Row.fetchAll(db, sql: "SELECT * FROM assignment WHERE course = ? ORDER BY id", arguments: [code]).map { row in
            StoredAssignment(id: row["id"], course: code,
                             assignment: GradeBook.Assignment(title: row["title"], type: type(row["type"]), score: row["score"], outOf: row["out_of"],
                                                              weight: row["weight"]),
                             due: (row["due_ns"] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:)), classAverage: row["class_average"])
        }
        return CourseRecord(course: course, weights: weights, assignments: assignments)
    }

    /// Sets an assignment type's share of the final grade; the course's total may not pass 100.
    public func setWeight(course code: String, type: String, percent: Double) throws(StoreError) {
        let type = type.trimmingWhitespace()
        guard !type.isEmpty else { throw .refused("give the assignment type, e.g. Exams") }
        guard percent.isFinite, (0...100).contains(percent) else { throw .refused("a weight is a percent from 0 to 100, not \(Position.plain(percent))") }
        try write { db in
            let code = try Self.courseCode(code, db)
            let record = try Self.record(code, db)
            let existing = record.weights.first { $0.type.lowercased() == type.lowercased() }
            let others = record.weights.filter { $0.type.lowercased() != type.lowercased() }.map(\.percent).reduce(0, +)
            guard others + percent <= 100 + 1e-9 else {
                throw StoreError.refused("the weights of \(code) would total \(Position.plain(others + percent))%, over 100: "
                    + "they total \(Position.plain(record.totalWeight))% now (\(record.weights.map { "\($0.type) \(Position.plain($0.percent))" }.joined(separator: ", ")))")
            }
            let explicit = record.assignments.filter { $0.assignment.type.lowercased() == type.lowercased() }.compactMap(\.assignment.weight).reduce(0, +)
            guard explicit <= percent + 1e-9 else {
                throw StoreError.refused("\(type) assignments of \(code) have explicit weights totalling \(Position.plain(explicit))%: the type needs at least that")
            }
            if let existing {
                try db.execute(sql: "UPDATE course_weight SET percent = ? WHERE course = ? AND type = ?", arguments: [percent, code, existing.type])
            } else {
                try db.execute(sql: "INSERT INTO course_weight (course, type, percent) VALUES (?, ?, ?)", arguments: [code, type, percent])
            }
        }
    }

    /// Adds an assignment; its id.
    public func addAssignment(_ a: StoredAssignment) throws(StoreError) -> Int64 {
        try write { db in
            var a = a
            a.course = try Self.courseCode(a.course, db)
            try Self.check(a, replacing: nil, db)
            try db.execute(sql: """
                INSERT INTO assignment (course, title, type, score, out_of, weight, due_ns, class_average) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [a.course, a.assignment.title, a.assignment.type, a.assignment.score, a.assignment.outOf, a.assignment.weight,
                                 a.due?.nanosecondsSinceEpoch, a.classAverage])
            return db.lastInsertedRowID
        }
    }

    public func assignment(_ id: Int64) throws(StoreError) -> StoredAssignment {
        try read { db in try Self.assignment(id, db) }
    }

    static func assignment(_ id: Int64, _ db: Database) throws -> StoredAssignment {
        guard let code = try String.fetchOne(db, sql: "SELECT course FROM assignment WHERE id = ?", arguments: [id]),
              let found = try record(code, db).assignments.first(where: { $0.id == id }) else {
            throw StoreError.refused("no assignment with id \(id): `marktime course show CODE` lists them")
        }
        return found
    }

    /// Replaces an assignment with `change(old)`, after the same checks as adding.
    public func editAssignment(_ id: Int64, _ change: (inout StoredAssignment) throws(StoreError) -> Void) throws(StoreError) -> StoredAssignment {
        try write { db in
            var a = try Self.assignment(id, db)
            try change(&a)
            try Self.check(a, replacing: id, db)
            try db.execute(sql: """
                UPDATE assignment SET title = ?, type = ?, score = ?, out_of = ?, weight = ?, due_ns = ?, class_average = ? WHERE id = ?
                """, arguments: [a.assignment.title, a.assignment.type, a.assignment.score, a.assignment.outOf, a.assignment.weight,
                                 a.due?.nanosecondsSinceEpoch, a.classAverage, id])
            return a
        }
    }

    public func removeAssignment(_ id: Int64) throws(StoreError) {
        try write { db in
            _ = try Self.assignment(id, db)
            try db.execute(sql: "DELETE FROM assignment WHERE id = ?", arguments: [id])
        }
    }

    /// A title, a known type, a score within 0…out-of, and explicit weights that fit the type.
    static func check(_ a: StoredAssignment, replacing id: Int64?, _ db: Database) throws {
        let x = a.assignment
        _ = try StoreError.name(x.title, what: "an assignment", example: "\"Sun run fix\"")
        let record = try record(a.course, db)
        guard let type = record.weights.first(where: { $0.type.lowercased() == x.type.lowercased() }) else {
            throw StoreError.refused("\(a.course) has no assignment type '\(x.type)': "
                + (record.weights.isEmpty ? "set one with `marktime course weight \(a.course) \(x.type) PERCENT`"
                                          : "its types are \(record.weights.map(\.type).joined(separator: ", "))"))
        }
        guard x.outOf.isFinite, x.outOf > 0 else { throw StoreError.refused("--out-of must be more than 0, not \(Position.plain(x.outOf))") }
        if let s = x.score, !(s.isFinite && s >= 0 && s <= x.outOf) {
            throw StoreError.refused("score \(Position.plain(s)) is outside 0…\(Position.plain(x.outOf)) (--out-of \(Position.plain(x.outOf)))")
        }
        if let avg = a.classAverage, !(avg.isFinite && avg >= 0 && avg <= x.outOf) {
            throw StoreError.refused("the class average \(Position.plain(avg)) is outside 0…\(Position.plain(x.outOf))")
        }
        if let w = x.weight {
            guard w.isFinite, w >= 0 else { throw StoreError.refused("--weight must be a percent of the final grade, not \(Position.plain(w))") }
            let others = record.assignments.filter { $0.id != id && $0.assignment.type.lowercased() == type.type.lowercased() }
                .compactMap(\.assignment.weight).reduce(0, +)
            guard others + w <= type.percent + 1e-9 else {
                throw StoreError.refused("explicit weights of \(type.type) would total \(Position.plain(others + w))%, over the type's \(Position.plain(type.percent))%")
            }
        }
    }

    static func courseCode(_ code: String, _ db: Database) throws -> String {
        guard let found = try String.fetchOne(db, sql: "SELECT code FROM course WHERE code = ?", arguments: [code.trimmingWhitespace()]) else {
            let known = try String.fetchAll(db, sql: "SELECT code FROM course ORDER BY code")
            throw StoreError.refused("no course \(code); " + (known.isEmpty ? "`marktime course add CODE --name NAME` adds one" : "courses: \(known.joined(separator: ", "))"))
        }
        return found
    }
}
