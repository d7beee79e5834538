import GRDB
import MarkTimeCore
import MarkTimeTasks

extension AppDatabase {
    public func addCourse(_ course: Course) throws(StoreError) {
        let code: String
        do { code = try Course.checkedCode(course.code) } catch { throw .refused(error.description) }
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
        do { _ = try CourseRecord.weightInput(type: type, percent: percent) } catch { throw .refused(error.description) }
        try write { db in
            let code = try Self.courseCode(code, db)
            let (type, existing) = try Self.record(code, db).checkWeight(type: type, percent: percent)
            if let existing {
                try db.execute(sql: "UPDATE course_weight SET percent = ? WHERE course = ? AND type = ?", arguments: [percent, code, existing])
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

    /// The assignment checked against its course as stored.
    static func check(_ a: StoredAssignment, replacing id: Int64?, _ db: Database) throws {
        try record(a.course, db).check(a, replacing: id)
    }

    static func courseCode(_ code: String, _ db: Database) throws -> String {
        try stored(code.trimmingWhitespace(), column: "code", of: "course", caseless: false, order: "code", db,
                   unknown: "no course \(code)", none: "`marktime course add CODE --name NAME` adds one", listed: "courses")
    }
}
