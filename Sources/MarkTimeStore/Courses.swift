import GRDB
import MarkTimeCore
import MarkTimeTasks

extension AppDatabase {
    /// Keeps a course (`Course.checked`); refused when its code is taken.
    public func addCourse(_ course: Course) throws(StoreError) {
        let (code, name) = (course.code, course.name)
        try write { db in
            if let other = try CourseRow.fetchOne(db, key: code)?.code {
                throw StoreError.refused("course \(other) already exists; `marktime course remove \(other)` first to replace it")
            }
            try CourseRow(code: code, name: name, scale: course.scale.description).insert(db)
        }
    }

    public func courses() throws(StoreError) -> [Course] {
        try read { db in try CourseRow.order(CourseRow.CodingKeys.code).fetchAll(db).map(\.course) }
    }

    /// Removes a course with its weights and assignments; its tasks keep their title.
    public func removeCourse(_ code: String) throws(StoreError) {
        try write { db in
            let code = try Self.courseCode(code, db)
            _ = try CourseRow.deleteOne(db, key: code)
            try TaskRecord.filter(TaskRecord.CodingKeys.course == code).updateAll(db, TaskRecord.CodingKeys.course.set(to: nil))
        }
    }

    public func course(_ code: String) throws(StoreError) -> CourseRecord {
        try read { db in try Self.record(try Self.courseCode(code, db), db) }
    }

    static func record(_ code: String, _ db: Database) throws -> CourseRecord {
        guard let course = try CourseRow.fetchOne(db, key: code)?.course else { throw StoreError.refused("no course \(code)") }
        let weights = try CourseWeightRecord.filter(CourseWeightRecord.CodingKeys.course == code).order(Column.rowID).fetchAll(db)
            .map { (type: $0.type, percent: $0.percent) }
        // Types compare without case; an assignment carries its type as the weight spells it.
        func type(_ name: String) -> String { weights.first { $0.type.lowercased() == name.lowercased() }?.type ?? name }
        let assignments = try AssignmentRecord.filter(AssignmentRecord.CodingKeys.course == code).order(AssignmentRecord.CodingKeys.id)
            .fetchAll(db).map { $0.stored(typeName: type) }
        return CourseRecord(course: course, weights: weights, assignments: assignments)
    }

    /// Sets an assignment type's share of the final grade; the course's total may not pass 100.
    public func setWeight(course code: String, type: String, percent: Double) throws(StoreError) {
        do { _ = try CourseRecord.weightInput(type: type, percent: percent) } catch { throw .refused(error.description) }
        try write { db in
            let code = try Self.courseCode(code, db)
            let (type, existing) = try Self.record(code, db).checkWeight(type: type, percent: percent)
            try CourseWeightRecord(course: code, type: existing ?? type, percent: percent).save(db)
        }
    }

    /// Adds an assignment; its id.
    public func addAssignment(_ a: StoredAssignment) throws(StoreError) -> Int64 {
        try write { db in
            var a = a
            a.course = try Self.courseCode(a.course, db)
            try Self.check(a, replacing: nil, db)
            var record = AssignmentRecord(a)
            record.id = nil
            try record.insert(db)
            return record.id ?? db.lastInsertedRowID
        }
    }

    public func assignment(_ id: Int64) throws(StoreError) -> StoredAssignment {
        try read { db in try Self.assignment(id, db) }
    }

    static func assignment(_ id: Int64, _ db: Database) throws -> StoredAssignment {
        guard let code = try AssignmentRecord.fetchOne(db, key: id)?.course,
              let found = try record(code, db).assignments.first(where: { $0.id == id }) else {
            throw StoreError.refused("no assignment with id \(id): `marktime course show CODE` lists them")
        }
        return found
    }

    /// Replaces an assignment with `change(old)`, after the same checks as adding.
    public func editAssignment(_ id: Int64, _ change: (inout StoredAssignment) throws(StoreError) -> Void) throws(StoreError) -> StoredAssignment {
        try write { db in
            let stored = try Self.assignment(id, db)
            var a = stored
            try change(&a)
            (a.id, a.course) = (id, stored.course)
            try Self.check(a, replacing: id, db)
            try AssignmentRecord(a).update(db)
            return a
        }
    }

    public func removeAssignment(_ id: Int64) throws(StoreError) {
        try write { db in
            _ = try Self.assignment(id, db)
            _ = try AssignmentRecord.deleteOne(db, key: id)
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
