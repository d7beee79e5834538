import MarkTimeCore

/// A course: its code, name and letter scale.
public struct Course: Hashable, Sendable {
    public var code: String
    public var name: String
    public var scale: GradeScale

    public init(code: String, name: String, scale: GradeScale = .standard) {
        self.code = code
        self.name = name
        self.scale = scale
    }
}

/// A stored assignment of a course.
public struct StoredAssignment: Hashable, Sendable {
    public var id: Int64?
    public var course: String
    public var assignment: GradeBook.Assignment
    public var due: UTCTime?
    public var classAverage: Double?

    public init(id: Int64? = nil, course: String, assignment: GradeBook.Assignment, due: UTCTime? = nil, classAverage: Double? = nil) {
        self.id = id
        self.course = course
        self.assignment = assignment
        self.due = due
        self.classAverage = classAverage
    }
}

/// A course with its weights and assignments, as the grade maths needs them.
public struct CourseRecord: Sendable {
    public var course: Course
    /// In the order they were set.
    public var weights: [(type: String, percent: Double)]
    public var assignments: [StoredAssignment]

    public init(course: Course, weights: [(type: String, percent: Double)], assignments: [StoredAssignment]) {
        self.course = course
        self.weights = weights
        self.assignments = assignments
    }

    public var book: GradeBook {
        GradeBook(weights: Dictionary(weights.map { ($0.type, $0.percent) }, uniquingKeysWith: { a, _ in a }),
                  assignments: assignments.map(\.assignment))
    }

    public var totalWeight: Double { weights.map(\.percent).reduce(0, +) }
}
