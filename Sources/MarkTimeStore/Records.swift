import Foundation
import GRDB
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeJournal
import MarkTimePeople
import MarkTimePlaces
import MarkTimeShare
import MarkTimeTasks

// One Codable record per table: GRDB reads and writes each by its coding keys, the
// column names, which also serve as its columns in queries. (The sight, task, place and
// daemon status records sit beside the code that uses them most.)

struct PersonRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "person"
    var id: Int64? = nil
    var name: String, zone: String, selected: Bool, createdAtNs: Int64
    enum CodingKeys: String, CodingKey, ColumnExpression { case id, name, zone, selected, createdAtNs = "created_at_ns" }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var person: Person {
        var p = Person(name: name, zone: zone, selected: selected)
        p.id = id
        return p
    }
}

struct MemberRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "member"
    var id: Int64? = nil
    var name: String, color: String, isMe: Bool, streak: Int
    var place: String? = nil, sinceNs: Int64? = nil, candidate: String? = nil, lat: Double? = nil, lon: Double? = nil, reportedAtNs: Int64? = nil, shareTopic: String? = nil
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, name, color, place, candidate, streak, lat, lon
        case isMe = "is_me", sinceNs = "since_ns", reportedAtNs = "reported_at_ns", shareTopic = "share_topic"
    }

    var member: Member {
        // A colour the store should not hold draws the hand white, never a crash.
        var m = Member(name: name, color: MemberColor(rawValue: color) ?? .white, isMe: isMe)
        m.id = id
        m.geofence = Geofence(place: place, since: sinceNs.map(UTCTime.init(nanosecondsSinceEpoch:)), candidate: candidate, streak: streak)
        if let lat, let lon { m.position = try? Position(latitude: lat, longitude: lon) }
        m.reportedAt = reportedAtNs.map(UTCTime.init(nanosecondsSinceEpoch:))
        m.shareTopic = shareTopic
        return m
    }
}

struct PlaceEventRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "place_event"
    var id: Int64? = nil
    var member: String, place: String, event: String, timeNs: Int64, lat: Double, lon: Double
    enum CodingKeys: String, CodingKey, ColumnExpression { case id, member, place, event, lat, lon, timeNs = "time_ns" }

    init(member: String, _ e: PlaceEvent) {
        (self.member, place, event, timeNs) = (member, e.place, e.kind.rawValue, e.time.nanosecondsSinceEpoch)
        (lat, lon) = (e.position.latitude, e.position.longitude)
    }

    var stored: StoredPlaceEvent? {
        guard let p = try? Position(latitude: lat, longitude: lon), let kind = PlaceEvent.Kind(rawValue: event) else { return nil }
        return StoredPlaceEvent(member: member, event: PlaceEvent(place: place, kind: kind, time: UTCTime(nanosecondsSinceEpoch: timeNs), position: p))
    }
}

struct JournalRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "journal"
    var id: Int64? = nil
    var kind: String, timeNs: Int64, text: String, createdAtNs: Int64
    var lat: Double? = nil, lon: Double? = nil, sha256: String? = nil, ext: String? = nil, width: Int? = nil, height: Int? = nil
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, kind, text, lat, lon, sha256, ext, width, height
        case timeNs = "time_ns", createdAtNs = "created_at_ns"
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var photo: StoredPhoto? {
        guard let sha256, let ext, let width, let height else { return nil }
        return StoredPhoto(sha256: sha256, fileExtension: ext, width: width, height: height)
    }

    func entry(media: String) -> DayEntry {
        let position = lat.flatMap { lat in lon.flatMap { try? Position(latitude: lat, longitude: $0) } }
        return DayEntry(kind: DayEntry.Kind(rawValue: kind) ?? .moment, time: UTCTime(nanosecondsSinceEpoch: timeNs), id: id, text: text,
                        position: position, file: sha256.map { "\(media)/\($0).\(ext ?? "")" }, width: width, height: height)
    }
}

struct ClockSampleRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "clock_sample"
    var bootID: String, source: TimeSource, monotonicNs: Int64, utcNs: Int64, segment: Int
    var uncertaintyS: Double? = nil
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case source, segment
        case bootID = "boot_id", monotonicNs = "monotonic_ns", utcNs = "utc_ns", uncertaintyS = "uncertainty_s"
    }

    init(bootID: String, _ e: ClockTrack.Entry) {
        (self.bootID, source, monotonicNs) = (bootID, e.sample.source, e.sample.monotonicNanoseconds)
        (utcNs, uncertaintyS, segment) = (e.sample.utc.nanosecondsSinceEpoch, e.sample.uncertainty, e.segment)
    }

    var entry: ClockTrack.Entry {
        ClockTrack.Entry(sample: ClockSample(source: source, monotonicNanoseconds: monotonicNs, utc: UTCTime(nanosecondsSinceEpoch: utcNs),
                                             uncertainty: uncertaintyS), segment: segment)
    }
}

struct InputGapRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "input_gap"
    var id: Int64? = nil
    var bootID: String, fromMonoNs: Int64, toMonoNs: Int64
    var fromUtcNs: Int64? = nil, toUtcNs: Int64? = nil
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id
        case bootID = "boot_id", fromMonoNs = "from_mono_ns", toMonoNs = "to_mono_ns", fromUtcNs = "from_utc_ns", toUtcNs = "to_utc_ns"
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    init(_ g: InputGap) {
        (id, bootID, fromMonoNs, toMonoNs) = (g.id, g.bootID, g.fromNanoseconds, g.toNanoseconds)
        (fromUtcNs, toUtcNs) = (g.from?.nanosecondsSinceEpoch, g.to?.nanosecondsSinceEpoch)
    }

    var gap: InputGap {
        InputGap(id: id, bootID: bootID, fromNanoseconds: fromMonoNs, toNanoseconds: toMonoNs,
                 from: fromUtcNs.map(UTCTime.init(nanosecondsSinceEpoch:)), to: toUtcNs.map(UTCTime.init(nanosecondsSinceEpoch:)))
    }
}

struct OutboxRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "share_outbox"
    var id: Int64? = nil
    var topic: String, payload: Data, retain: Bool, kind: String, createdAtNs: Int64
    enum CodingKeys: String, CodingKey, ColumnExpression { case id, topic, payload, retain, kind, createdAtNs = "created_at_ns" }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    init(_ m: ShareMessage, now: UTCTime) {
        (id, topic, payload, retain, kind, createdAtNs) = (nil, m.topic, Data(m.payload), m.retain, m.kind.rawValue, now.nanosecondsSinceEpoch)
    }

    var message: ShareMessage {
        var m = ShareMessage(topic: topic, payload: [UInt8](payload), retain: retain, kind: ShareMessage.Kind(rawValue: kind) ?? .location)
        m.id = id
        return m
    }
}

struct AccountRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "account"
    var id: Int64? = nil
    /// `admin` is kept equal to `role == "admin"` for stores read by older versions.
    var name: String, passwordHash: String, admin: Bool, role: String, theme: String, fontSize: String, createdAtNs: Int64
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, name, admin, role, theme
        case passwordHash = "password_hash", fontSize = "font_size", createdAtNs = "created_at_ns"
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var account: Account {
        Account(id: id ?? 0, name: name, role: Role(rawValue: role) ?? .family, theme: Theme(rawValue: theme) ?? .day, fontSize: FontSize(rawValue: fontSize) ?? .normal,
                createdAt: UTCTime(nanosecondsSinceEpoch: createdAtNs))
    }
}

struct WebSessionRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "web_session"
    var tokenSha256: String, accountID: Int64, csrf: String, createdAtNs: Int64, lastSeenNs: Int64
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case csrf
        case tokenSha256 = "token_sha256", accountID = "account_id", createdAtNs = "created_at_ns", lastSeenNs = "last_seen_ns"
    }
}

struct InviteRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "invite"
    var codeSha256: String, createdAtNs: Int64, expiresNs: Int64
    var createdBy: String? = nil, usedAtNs: Int64? = nil, role: String = Role.crew.rawValue
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case role
        case codeSha256 = "code_sha256", createdBy = "created_by", createdAtNs = "created_at_ns", expiresNs = "expires_ns", usedAtNs = "used_at_ns"
    }
}

struct LoginFailureRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "login_failure"
    var name: String, address: String, atNs: Int64
    enum CodingKeys: String, CodingKey, ColumnExpression { case name, address, atNs = "at_ns" }
}

struct CourseRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "course"
    var code: String, name: String, scale: String
    enum CodingKeys: String, CodingKey, ColumnExpression { case code, name, scale }
    var course: Course { Course(code: code, name: name, scale: (try? GradeScale(scale)) ?? .standard) }
}

struct CourseWeightRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "course_weight"
    var course: String, type: String, percent: Double
    enum CodingKeys: String, CodingKey, ColumnExpression { case course, type, percent }
}

struct AssignmentRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "assignment"
    var id: Int64? = nil
    var course: String, title: String, type: String, outOf: Double
    var score: Double? = nil, weight: Double? = nil, dueNs: Int64? = nil, classAverage: Double? = nil
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, course, title, type, score, weight
        case outOf = "out_of", dueNs = "due_ns", classAverage = "class_average"
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    init(_ a: StoredAssignment) {
        (id, course, title, type, score) = (a.id, a.course, a.assignment.title, a.assignment.type, a.assignment.score)
        (outOf, weight, dueNs, classAverage) = (a.assignment.outOf, a.assignment.weight, a.due?.nanosecondsSinceEpoch, a.classAverage)
    }

    /// The assignment, its type spelt as `typeName` spells it.
    func stored(typeName: (String) -> String) -> StoredAssignment {
        StoredAssignment(id: id, course: course,
                         assignment: GradeBook.Assignment(title: title, type: typeName(type), score: score, outOf: outOf, weight: weight),
                         due: dueNs.map(UTCTime.init(nanosecondsSinceEpoch:)), classAverage: classAverage)
    }
}

struct AnchorWatchRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "anchor_watch"
    var id: Int64 = 1
    var lat: Double, lon: Double, radiusM: Double, state: String, outside: Int, droppedAtNs: Int64
    var bootID: String? = nil, lastFixMonoNs: Int64? = nil, lastFixUtcNs: Int64? = nil, distanceM: Double? = nil, bearingDeg: Double? = nil
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, lat, lon, state, outside
        case radiusM = "radius_m", droppedAtNs = "dropped_at_ns", bootID = "boot_id", lastFixMonoNs = "last_fix_mono_ns"
        case lastFixUtcNs = "last_fix_utc_ns", distanceM = "distance_m", bearingDeg = "bearing_deg"
    }

    func stored(_ settings: Settings) throws -> StoredAnchorWatch? {
        guard let anchor = try? Position(latitude: lat, longitude: lon) else { return nil }
        let watch = AnchorWatch(anchor: anchor, radius: radiusM, confirmations: try settings.anchor.confirmations,
                                staleAfter: try settings.anchor.staleAfter, droppedAt: lastFixMonoNs ?? 0,
                                state: AnchorWatch.State(rawValue: state) ?? .watching, outside: outside, lastFix: lastFixMonoNs,
                                lastFixTime: lastFixUtcNs.map(UTCTime.init(nanosecondsSinceEpoch:)), distance: distanceM, bearing: bearingDeg)
        return StoredAnchorWatch(watch: watch, droppedAt: UTCTime(nanosecondsSinceEpoch: droppedAtNs), bootID: bootID)
    }
}

struct SeenRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "share_seen"
    var topic: String, lastSeenNs: Int64, messages: Int
    var name: String? = nil
    enum CodingKeys: String, CodingKey, ColumnExpression { case topic, name, messages, lastSeenNs = "last_seen_ns" }
}
