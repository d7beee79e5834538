import GRDB
import MarkTimeCore
import MarkTimePeople

extension AppDatabase {
    /// Keeps a person (`Person.checked`); refused when the name is taken, in any case.
    public func addPerson(_ person: Person, now: UTCTime) throws(StoreError) {
        let name = person.name
        try write { db in
            if let other = try String.fetchOne(db, sql: "SELECT name FROM person WHERE name = ? COLLATE NOCASE", arguments: [name]) {
                throw StoreError.refused("'\(other)' is already in your people; choose another name, or `marktime people remove \(other)` first")
            }
            var record = PersonRecord(name: name, zone: person.zone, selected: person.selected, createdAtNs: now.nanosecondsSinceEpoch)
            try record.insert(db)
        }
    }

    /// Everyone, in the order they were added.
    public func people() throws(StoreError) -> [Person] {
        try read { db in try PersonRecord.order(PersonRecord.CodingKeys.id).fetchAll(db).map(\.person) }
    }

    /// Selects or deselects people by name; all or nothing.
    public func selectPeople(_ names: [String], selected: Bool) throws(StoreError) {
        try write { db in
            for name in names {
                let canonical = try Self.personName(name, db)
                try PersonRecord.filter(PersonRecord.CodingKeys.name == canonical).updateAll(db, PersonRecord.CodingKeys.selected.set(to: selected))
            }
        }
    }

    /// Removes people by name; all or nothing.
    public func removePeople(_ names: [String]) throws(StoreError) {
        try write { db in
            for name in names {
                try PersonRecord.filter(PersonRecord.CodingKeys.name == (try Self.personName(name, db))).deleteAll(db)
            }
        }
    }

    /// Renames a person (to a name `Person.checkedName` gave).
    public func renamePerson(_ old: String, to trimmed: String) throws(StoreError) {
        try write { db in
            let canonical = try Self.personName(old, db)
            if let other = try String.fetchOne(db, sql: "SELECT name FROM person WHERE name = ? COLLATE NOCASE AND name != ?",
                                               arguments: [trimmed, canonical]) {
                throw StoreError.refused("'\(other)' is already in your people; choose another name")
            }
            try PersonRecord.filter(PersonRecord.CodingKeys.name == canonical).updateAll(db, PersonRecord.CodingKeys.name.set(to: trimmed))
        }
    }

    static func personName(_ name: String, _ db: Database) throws -> String {
        try stored(name, of: "person", order: "id", db, unknown: "no person named '\(name)'", none: "`marktime people add NAME CITY` adds one",
                   listed: "your people")
    }
}
