import Foundation
import MarkTimeCore
import MarkTimePeople
import Synchronization

/// The machine's IANA tz database (`/usr/share/zoneinfo`, or `$TZDIR`): its names
/// and each zone's rules, read from its TZif files.
public struct TZDatabase: Sendable {
    public let directory: String

    public init(directory: String? = nil) {
        self.directory = directory ?? ProcessInfo.processInfo.environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    }

    /// Zones and links, from the database's `tzdata.zi`, and their cities' coordinates
    /// from `zone1970.tab` when the database has it.
    public func catalogue() throws(InputError) -> ZoneCatalogue {
        let path = directory + "/tzdata.zi"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw InputError("cannot read the tz database at \(path): install it with `sudo apt-get install tzdata`")
        }
        var catalogue = ZoneCatalogue(tzdataZi: text)
        if let table = try? String(contentsOfFile: directory + "/zone1970.tab", encoding: .utf8) {
            catalogue.readCoordinates(zone1970Tab: table)
        }
        return catalogue
    }

    /// Whether `name` is a zone (or a city) of the database: what a config key of a zone accepts.
    public func knows(_ name: String) -> Bool { (try? catalogue().resolve(name)) != nil }

    /// A zone's rules; `identifier` must be a file of the database. Each file is read once.
    public func rules(_ identifier: String) throws(InputError) -> SystemZoneRules {
        var isDirectory: ObjCBool = false
        let path = directory + "/" + identifier
        guard !identifier.hasPrefix("/"), !identifier.contains(".."),
              FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { throw InputError("the tz database at \(directory) has no zone \(identifier)") }
        // Read again when the file changes (an apt upgrade of tzdata replaces it).
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let version = "\((attributes?[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0) "
            + "\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) \((attributes?[.size] as? NSNumber)?.intValue ?? 0)"
        if let known = Self.read.withLock({ $0[path] }), known.version == version { return SystemZoneRules(identifier: identifier, tzif: known.tzif) }
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw InputError("cannot read \(path): reinstall the tz database with `sudo apt-get install --reinstall tzdata`")
        }
        let tzif: TZif
        do { tzif = try TZif(Array(bytes)) } catch {
            throw InputError("\(path) is not a tz database zone (\(error)): reinstall it with `sudo apt-get install --reinstall tzdata`")
        }
        Self.read.withLock { $0[path] = (version, tzif) }
        return SystemZoneRules(identifier: identifier, tzif: tzif)
    }

    /// The zones read so far, by path, with the file's inode, time and size when read.
    private static let read = Mutex<[String: (version: String, tzif: TZif)]>([:])

    /// The machine's own zone: `$TZ`, else `/etc/timezone`, else where `/etc/localtime` points; UTC when none says.
    public func systemZone() -> String {
        let env = ProcessInfo.processInfo.environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
        if let env, !env.isEmpty, (try? rules(env)) != nil { return env }
        if let text = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8) {
            let name = text.trimmingWhitespace()
            if (try? rules(name)) != nil { return name }
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
           let range = target.range(of: "zoneinfo/") {
            return String(target[range.upperBound...])
        }
        return "UTC"
    }
}

extension TZDatabase {
    /// The user's zone: `override` (a city or identifier), else config `home.zone`, else the system's.
    public func home(_ settings: Settings, override: String? = nil) throws(InputError) -> SystemZoneRules {
        if let override { return try rules(try catalogue().resolve(override)) }
        if let home = try settings.homeZone {
            let catalogue = try catalogue()
            guard let zone = catalogue.canonical(home) ?? (try? catalogue.resolve(home)) else {
                throw InputError("config home.zone '\(home)' is not a zone of the tz database: `marktime config set home.zone Australia/Brisbane`")
            }
            return try rules(zone)
        }
        return try rules(systemZone())
    }

    /// The board for the user's `zone`: the selected `people` (name and canonical zone),
    /// each with their zone's city, and the ship when it has a position.
    public func board(zone: SystemZoneRules, people: [(name: String, zone: String)], ship: Position?) throws(InputError) -> PeopleBoard {
        let catalogue = try catalogue()
        var entries: [PeopleBoard.Entry] = []
        for p in people {
            entries.append(PeopleBoard.Entry(name: p.name, rules: try rules(p.zone), city: catalogue.position(of: p.zone)))
        }
        return PeopleBoard(zone: zone, home: catalogue.position(of: zone.identifier), people: entries, ship: ship)
    }
}

/// One zone's rules from the tz database file, read as TZif: what glibc's `localtime_r`
/// says under `TZ=:zone`, without setting the process-wide `TZ` that every thread reads.
public struct SystemZoneRules: ZoneRules {
    public let identifier: String
    let tzif: TZif

    public func offset(atSecondsSinceEpoch seconds: Int64) -> ZoneOffset { tzif.offset(at: seconds) }
}
