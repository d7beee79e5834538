import GRDB
import MarkTimeCore
import MarkTimePeople

extension AppDatabase {
    public func addPerson(_ person: Person, now: UTCTime) throws(StoreError) {
        let name = try StoreError.name(person.name, what: "a person", example: "Mum")
        try write { db in
            if let other = try String.fetchOne(db, sql: "SELECT name FROM person WHERE name = ? COLLATE NOCASE", arguments: [name]) {
                throw StoreError.refused("'\(other)' is already in your people; choose another name, or `marktime people remove \(other)` first")
            }
            try db.execute(sql: "INSERT INTO person (name, zone, selected, created_at_ns) VALUES (?, ?, ?, ?)",
                           arguments: [name, person.zone, person.selected, now.nanosecondsSinceEpoch])
        }
    }

    /// Everyone, in the order they were added.
    public func people() throws(StoreError) -> [Person] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM person ORDER BY id").map { row in
                var p = Person(name: row["name"], zone: row["zone"], selected: row["selected"])
                p.id = row["id"]
                return p
            }
        }
    }

    /// Selects or deselects people by name; all or nothing.
    public func selectPeople(_ names: [String], selected: Bool) throws(StoreError) {
        try write { db in
            for name in names {
                let canonical = try Self.personName(name, db)
                try db.execute(sql: "UPDATE person SET selected = ? WHERE name = ?", arguments: [selected, canonical])
            }
        }
    }

    /// Removes people by name; all or nothing.
    public func removePeople(_ names: [String]) throws(StoreError) {
        try write { db in
            for name in names {
                try db.execute(sql: "DELETE FROM person WHERE name = ?", arguments: [try Self.personName(name, db)])
            }
        }
    }

    public func renamePerson(_ old: String, to new: String) throws(StoreError) {
        let trimmed = try StoreError.name(new, what: "a person", example: "Mum")
        try write { db in
            let canonical = try Self.personName(old, db)
            if let other = try String.fetchOne(db, sql: "SELECT name FROM person WHERE name = ? COLLATE NOCASE AND name != ?",
                                               arguments: [trimmed, canonical]) {
                throw StoreError.refused("'\(other)' is already in your people; choose another name")
            }
            try db.execute(sql: "UPDATE person SET name = ? WHERE name = ?", arguments: [trimmed, canonical])
        }
    }

    static func personName(_ name: String, _ db: Database) throws -> String {
        try stored(name, of: "person", order: "id", db, unknown: "no person named '\(name)'", none: "`marktime people add NAME CITY` adds one",
                   listed: "your people")
    }
}
