import MarkTimeCore
import MarkTimePlaces
import Synchronization
import Testing

/// An in-memory `PlaceRepository`, ringing a list: the book's rules tested apart from SQLite.
final class MemoryPlaces: PlaceRepository, DaemonBell {
    let names = Mutex<[String]>([])
    let rung = Mutex<[DoorbellMessage]>([])

    func ring(_ message: DoorbellMessage) { rung.withLock { $0.append(message) } }

    func addPlace(_ place: Place, now: UTCTime) throws {
        try names.withLock { names throws(InputError) in
            guard !names.contains(where: { $0.lowercased() == place.name.lowercased() }) else {
                throw InputError("a place named '\(place.name)' already exists")
            }
            names.append(place.name)
        }
    }

    func removePlace(named name: String) throws {
        try names.withLock { names throws(InputError) in
            guard let i = names.firstIndex(of: name) else { throw InputError("no place named '\(name)'") }
            names.remove(at: i)
        }
    }

    func renamePlace(_ old: String, to new: String) throws {
        try names.withLock { names throws(InputError) in
            guard let i = names.firstIndex(of: old) else { throw InputError("no place named '\(old)'") }
            names[i] = new
        }
    }
}

@Suite("The place book")
struct PlaceBookTests {
    let memory = MemoryPlaces()
    var book: PlaceBook<MemoryPlaces> { PlaceBook(memory, bell: memory) }

    func place(_ name: String) throws -> Place {
        try Place(name: name, kind: .anchorage, center: try Position(latitude: -27.3807, longitude: 153.3807), radius: 150)
    }

    @Test func eachKeptChangeRingsTheDaemonOnce() throws {
        // When a place is added, renamed and removed
        try book.add(try place("Tangalooma"), now: UTCTime(wholeSeconds: 0))
        try book.rename("Tangalooma", to: "  Tangalooma wrecks ")
        try book.remove(named: "Tangalooma wrecks")
        // Then the share service was told three times, and the new name came trimmed
        #expect(memory.rung.withLock { $0 } == [.placesChanged, .placesChanged, .placesChanged])
        #expect(memory.names.withLock { $0 }.isEmpty)
    }

    @Test func aChangeTheStoreRefusesRingsNothing() throws {
        // Given a place
        try book.add(try place("Home"), now: UTCTime(wholeSeconds: 0))
        // When another of the same name in another case is added, and an unknown one removed
        #expect(throws: InputError("a place named 'HOME' already exists")) { try book.add(try place("HOME"), now: UTCTime(wholeSeconds: 0)) }
        #expect(throws: InputError("no place named 'Work'")) { try book.remove(named: "Work") }
        // Then only the first add rang
        #expect(memory.rung.withLock { $0 } == [.placesChanged])
    }

    @Test func aBlankNewNameNeverReachesTheStore() throws {
        // Given a place
        try book.add(try place("Home"), now: UTCTime(wholeSeconds: 0))
        // When it is renamed to spaces
        #expect(throws: InputError("a place needs a name, e.g. Home")) { try book.rename("Home", to: "   ") }
        // Then its name stands and nothing more rang
        #expect(memory.names.withLock { $0 } == ["Home"])
        #expect(memory.rung.withLock { $0 } == [.placesChanged])
    }
}
