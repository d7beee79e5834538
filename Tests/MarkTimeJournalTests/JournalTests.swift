import MarkTimeCore
import MarkTimeJournal
import MarkTimePlaces
import Synchronization
import Testing

/// An in-memory `JournalRepository`: the journal's rules tested apart from SQLite.
final class MemoryJournal: JournalRepository {
    let entries = Mutex<[DayEntry]>([])
    let photos = Mutex<[[UInt8]: Int64]>([:])
    let known: [Place]

    init(places: [Place] = []) { known = places }

    func insertJournal(_ note: JournalNote, time: UTCTime, text: String, position: Position?, now: UTCTime) throws -> Int64 {
        entries.withLock { e in
            e.append(DayEntry(kind: note == .moment ? .moment : .checkin, time: time, id: Int64(e.count + 1), text: text, position: position))
            return Int64(e.count)
        }
    }

    func keepPhoto(_ bytes: [UInt8], info: ImageInfo, caption: String, at time: UTCTime, now: UTCTime) throws -> (id: Int64, added: Bool) {
        if let id = photos.withLock({ $0[bytes] }) { return (id, false) }
        let id = entries.withLock { e in
            e.append(DayEntry(kind: .photo, time: time, id: Int64(e.count + 1), text: caption))
            return Int64(e.count)
        }
        photos.withLock { $0[bytes] = id }
        return (id, true)
    }

    func dayEntries(from: UTCTime, to: UTCTime) throws -> [DayEntry] {
        entries.withLock { $0.filter { $0.time >= from && $0.time < to } }
    }

    func places() throws -> [Place] { known }
}

@Suite("The journal's rules")
struct JournalTests {
    let now = UTCTime(wholeSeconds: 1_795_000_000)
    let harbour = try! Position(latitude: -27.3807, longitude: 153.3807)

    @Test func aMomentIsKeptTrimmed() throws {
        // When a moment is added with spaces around it
        let memory = MemoryJournal()
        let id = try Journal(memory).addMoment("  Dolphins off the bow \n", at: now, now: now)
        // Then its words are kept trimmed
        #expect(memory.entries.withLock { $0.map(\.text) } == ["Dolphins off the bow"])
        #expect(id == 1)
    }

    @Test func aMomentWithoutWordsNeverReachesTheStore() {
        let memory = MemoryJournal()
        #expect(throws: InputError("a moment needs some words")) { try Journal(memory).addMoment("  \n", at: now, now: now) }
        #expect(memory.entries.withLock { $0.isEmpty })
    }

    @Test func aCheckInIsNamedAfterThePlaceWhoseRadiusHoldsIt() throws {
        // Given a harbour with a 500 m radius, and a position 100 m from it
        let place = try Place(name: "Tangalooma", kind: .harbour, center: harbour, radius: 500)
        let memory = MemoryJournal(places: [place])
        let near = try Position(latitude: -27.3807 + 100.0 / 1_852 / 60, longitude: 153.3807)
        // When the navigator checks in there without a name
        let c = try Journal(memory).checkIn(at: near, name: nil, time: now, now: now)
        // Then the check-in takes the harbour's name
        #expect(c.name == "Tangalooma")
        #expect(c.inside?.name == "Tangalooma")
        #expect(memory.entries.withLock { $0.map(\.text) } == ["Tangalooma"])
    }

    @Test func aCheckInOutsideEveryPlaceIsACheckIn() throws {
        // Given a harbour with a 150 m radius, and a position a mile from it
        let memory = MemoryJournal(places: [try Place(name: "Tangalooma", kind: .harbour, center: harbour, radius: 150)])
        let away = try Position(latitude: -27.3807 + 1.0 / 60, longitude: 153.3807)
        // When the navigator checks in
        let c = try Journal(memory).checkIn(at: away, name: nil, time: now, now: now)
        // Then it is called "Check-in", and the harbour is listed as nearest
        #expect(c.name == "Check-in")
        #expect(c.inside == nil)
        #expect(c.nearest.map(\.place.name) == ["Tangalooma"])
    }

    @Test func bytesThatAreNotAnImageNeverReachTheStore() {
        let memory = MemoryJournal()
        #expect(throws: InputError("notes.txt is not a JPEG or PNG image (its first bytes say so, whatever its name): nothing added")) {
            try Journal(memory).addPhoto(Array("hello".utf8), name: "notes.txt", caption: "", given: nil, zone: FixedZone(), now: now)
        }
        #expect(memory.entries.withLock { $0.isEmpty })
    }

    @Test func aPhotoIsFiledWithItsCaptionTrimmedAtTheTimeGivenElseNow() throws {
        // When a PNG (no capture time) is added without a time, and another with one
        let memory = MemoryJournal()
        let given = now.adding(nanoseconds: -3_600_000_000_000)
        let first = try Journal(memory).addPhoto(png(width: 640, height: 480), name: "reef.png", caption: " Reef ", given: nil, zone: FixedZone(), now: now)
        let second = try Journal(memory).addPhoto(png(width: 320, height: 240), name: "dock.png", caption: "Dock", given: given, zone: FixedZone(), now: now)
        // Then the first is filed at now and the second at its time, each with what the header says
        #expect((first.time, first.info.width, first.info.height) == (now, 640, 480))
        #expect((second.time, second.info.width) == (given, 320))
        #expect(memory.entries.withLock { $0.map(\.text) } == ["Reef", "Dock"])
    }

    @Test func entriesAreCountedByTheLocalDayTheyFellOn() throws {
        // Given a zone ten hours ahead, and moments at 13:00 and 15:00 UTC on 30 November 2026
        let zone = FixedZone("AEST", offset: ZoneOffset(seconds: 36_000, abbreviation: "AEST", isDST: false))
        let memory = MemoryJournal()
        let journal = Journal(memory)
        let thirteen = UTCTime(wholeSeconds: 1_796_043_600)
        _ = try journal.addMoment("Anchored", at: thirteen, now: thirteen)
        _ = try journal.addMoment("Anchor light on", at: thirteen.adding(nanoseconds: 7_200_000_000_000), now: thirteen)
        // When November and December are counted in that zone
        let november = try journal.entryCounts(MonthGrid(year: 2026, month: 11), zone: zone)
        let december = try journal.entryCounts(MonthGrid(year: 2026, month: 12), zone: zone)
        // Then 13:00 UTC is 23:00 on the 30th there, and 15:00 UTC is 01:00 on 1 December
        #expect(november == [30: 1])
        #expect(december == [1: 1])
    }
}
