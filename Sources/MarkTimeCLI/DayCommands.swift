import ArgumentParser
import Crypto
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeJournal
import MarkTimePeople
import MarkTimePlaces
import MarkTimeStore
import Rainbow

/// `--date YYYY-MM-DD` and `--time HH:MM` in the home zone; now by default.
struct WhenOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The day, YYYY-MM-DD (default: today).", valueName: "date")) var date: String?
    @Option(help: ArgumentHelp("The time, HH:MM (default: now).", valueName: "time")) var time: String?

    var given: Bool { date != nil || time != nil }

    /// The instant in `zone`; refuses a date that does not exist, and a time the clocks skip.
    func instant(_ zone: SystemZoneRules) throws -> UTCTime {
        let now = try wallClock()
        guard given else { return now }
        let (today, _) = zone.local(at: now)
        var local = today
        if let date {
            local.date = try CivilDate.read(date, what: "--date")
        }
        if let time {
            guard let m = LocalDateTime.minuteOfDay(time) else { throw InputError("--time '\(time)' is not a time of day: use HH:MM, 24-hour") }
            local.minuteOfDay = m
        }
        let (seconds, note) = try zone.instant(of: local)
        if let note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        return try UTCTime(validWholeSeconds: seconds)
    }
}

/// The day `text` names in the home zone (today when nil).
func journalDay(_ text: String?, _ zone: SystemZoneRules) throws -> CivilDate {
    guard let text else { return zone.local(at: try wallClock()).0.date }
    return try CivilDate.read(text, what: "the day")
}

/// A day's page from the store, with the Sun's events at the day's position.
func dayPage(_ db: AppDatabase, _ date: CivilDate, _ zone: SystemZoneRules) throws -> DayPage {
    let span = DayPage.span(of: date, in: zone)
    let entries = try db.dayEntries(from: UTCTime(wholeSeconds: span.lowerBound), to: UTCTime(wholeSeconds: span.upperBound))
    let fix = try daemonPosition(db, maxAge: PeopleBoard.shipFixAge)
    let home = try db.places().first { $0.kind == .home }.map { (name: $0.name, position: $0.center) }
    return DayPage(date: date, zone: zone, entries: entries, sun: DaySun(entries: entries, fix: fix, home: home, span: span))
}

extension DayEntry {
    var json: JSON {
        .object([("kind", .string(kind.rawValue)), ("time", .string(time.iso8601)), ("id", JSON.from(id)), ("text", .string(text)),
                 ("position", JSON.from(position?.ddm)), ("lat", JSON.from(position?.latitude)), ("lon", JSON.from(position?.longitude)),
                 ("detail", JSON.from(detail)), ("file", JSON.from(file)), ("width", JSON.from(width)), ("height", JSON.from(height)),
                 ("hs", JSON.from(hs))])
    }
}

extension DaySun {
    var json: JSON {
        .object([("position", .string(position.ddm)), ("lat", .number(position.latitude)), ("lon", .number(position.longitude)),
                 ("source", .string(source.text))]
                + named.map { ($0.name.replacingOccurrences(of: " ", with: "_"), JSON.from($0.time?.iso8601)) })
    }
}

extension DayPage {
    var json: JSON {
        .object([("date", .string(date.description)), ("zone", .string(zone.identifier)), ("sun", sun?.json ?? .null),
                 ("entries", .array(entries.map(\.json)))])
    }
}

extension MarkTime {
    struct Day: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The day journal: moments, check-ins and photos, with the day's sights, places and tasks.",
            discussion: """
                Examples:
                  marktime day note "Dolphins off the bow"
                  marktime day checkin --here          (named after the place you are in)
                  marktime day photo ~/sunset.jpg --caption "Green flash"
                  marktime day                         (today's page)
                  marktime day 2026-11-21 --format json
                  marktime day export 2026-11-21 -o log-2026-11-21.md
                  marktime cal 2026-11                 (which days have entries)
                Days and times are in the home zone (config home.zone, else the system's).
                The page opens with the Sun's day: astronomical, nautical and civil dawn (the Sun's centre
                at −18°, −12°, −6°), sunrise and sunset (the upper limb on the horizon: the centre at
                −0° 50′), then the dusks; worked at the day's last recorded position (a sight's GPS fix,
                a check-in, a place), else the daemon's current fix, else the place of kind home.
                """,
            subcommands: [Show.self, Note.self, Checkin.self, Photo.self, Export.self, Remove.self],
            defaultSubcommand: Show.self)

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Every entry of a day, in time order.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The day, YYYY-MM-DD (default: today).") var date: String?
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let zone = try TZDatabase().home(try config.settings())
                let page = try dayPage(try store.openForReading(), try journalDay(date, zone), zone)
                switch format {
                case .json: print(page.json.render())
                case .table:
                    print(page.title + "  (\(zone.identifier))")
                    print(page.sunLine)
                    guard !page.entries.isEmpty else { print("nothing recorded: `marktime day note TEXT` adds a moment"); return }
                    print(TextTable(header: ["TIME", "KIND", "ID", "ENTRY"], rows: page.entries.map { e in
                        [page.clock(e.time), e.kind.rawValue, e.id.map(String.init) ?? "",
                         page.body(e)]
                    }).render())
                }
            }
        }

        struct Note: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a moment: a quick sentence.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "What happened.") var text: String
            @OptionGroup var when: WhenOptions

            func run() async throws {
                let zone = try TZDatabase().home(try config.settings())
                let at = try when.instant(zone)
                let id = try store.open().addMoment(text, at: at, now: try wallClock())
                print("moment \(id) at \(zone.localText(at))")
            }
        }

        struct Checkin: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Check in where you are: named after the nearest known place whose radius you are in.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Option(parsing: .unconditional, help: ArgumentHelp("A position (default: the daemon's fix, as --here).", valueName: "pos"))
            var position: String?
            @Flag(help: "Use the daemon's latest GPS fix.") var here = false
            @Option(help: "Its name (default: the place you are in).") var name: String?
            @OptionGroup var when: WhenOptions

            func run() async throws {
                let settings = try config.settings()
                let zone = try TZDatabase().home(settings)
                let db = try store.open()
                var options = PositionOptions()
                options.position = position
                options.here = here || position == nil
                let at = try options.resolve(db, settings)
                let time = try when.instant(zone)
                let c = try db.checkIn(at: at, name: name, time: time, now: try wallClock())
                print("check-in \(c.id): \(Text.escaped(c.name)) at \(at.ddm), \(zone.localText(time))")
                if c.inside == nil {
                    print(c.nearest.isEmpty ? "no known places: `marktime place add` adds them"
                          : "not within a known place; nearest: " + c.nearest.prefix(3).map { "\(Text.escaped($0.place.name)) \(distanceText($0.metres))" }.joined(separator: ", "))
                }
            }
        }

        struct Photo: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add a photo (JPEG or PNG), kept in the store's media folder by its SHA-256.",
                subcommands: [AddPhoto.self, RemovePhoto.self], defaultSubcommand: AddPhoto.self)
        }

        struct AddPhoto: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Add a photo; its time is the EXIF capture time when it has one, else now (or --date/--time).")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The JPEG or PNG file.") var file: String
            @Option(help: "A caption.") var caption = ""
            @OptionGroup var when: WhenOptions

            func run() async throws {
                let zone = try TZDatabase().home(try config.settings())
                let data: Data
                do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
                    throw InputError("cannot read \(file): \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
                }
                let bytes = [UInt8](data)
                guard let info = ImageInfo(bytes) else {
                    throw InputError("\(file) is not a JPEG or PNG image (its first bytes say so, whatever its name): nothing added")
                }
                var time = try when.instant(zone)
                if !when.given, let captured = info.captured {
                    // With the camera's offset the time is exact; without, it is read in the home zone.
                    let minute = try info.capturedOffset.map { captured.secondsAsUTC - Int64($0) } ?? zone.instant(of: captured).seconds
                    // A camera clock outside the store's years is ignored: the photo takes now.
                    time = (try? UTCTime(validWholeSeconds: minute + Int64(info.capturedSecond))) ?? time
                }
                let sha = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
                let photo = StoredPhoto(sha256: sha, fileExtension: info.fileExtension, width: info.width, height: info.height)
                let db = try store.open()
                try MediaFolder(db.mediaFolder).keep(data, as: photo.fileName)
                let (id, added) = try db.addPhoto(photo, caption: caption, at: time, now: try wallClock())
                print(added ? "photo \(id): \(info.width)×\(info.height) \(info.format.rawValue), \(zone.localText(time))"
                            : "photo \(id) already has this image: kept once")
            }
        }

        struct RemovePhoto: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a photo and its file.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The photo's id.") var id: Int64

            func run() async throws {
                let db = try store.open()
                if let photo = try db.removeJournal(kind: "photo", id: id) {
                    try? FileManager.default.removeItem(atPath: db.mediaFolder + "/" + photo.fileName)
                }
                print("photo \(id) removed")
            }
        }

        struct Export: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Write a day's page as Markdown (or JSON).")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The day, YYYY-MM-DD.") var date: String
            @Option(help: "md or json.") var format: PageFormat = .md
            @Option(name: .short, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")) var output: String?

            enum PageFormat: String, ExpressibleByArgument, CaseIterable { case md, json }

            func run() async throws {
                let zone = try TZDatabase().home(try config.settings())
                let page = try dayPage(try store.openForReading(), try journalDay(date, zone), zone)
                let text = format == .md ? page.markdown : page.json.render() + "\n"
                guard let output else { print(text, terminator: ""); return }
                do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                    throw InputError("cannot write \(output): \(error.localizedDescription)")
                }
                print("wrote \(output)")
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete a moment or check-in (asks first unless --yes).")
            @OptionGroup var store: StoreOptions
            @Argument(help: "moment or checkin.") var kind: Kind
            @Argument(help: "Its id.") var id: Int64
            @Flag(help: "Do not ask.") var yes = false

            enum Kind: String, ExpressibleByArgument, CaseIterable { case moment, checkin }

            func run() async throws {
                let db = try store.open()
                let text = try db.journalText(kind: kind.rawValue, id: id)
                if !yes, try !confirm("Delete \(kind.rawValue) \(id) “\(text)” for good?", hint: "add --yes to delete without asking") {
                    print("kept \(kind.rawValue) \(id)")
                    return
                }
                try db.removeJournal(kind: kind.rawValue, id: id)
                print("\(kind.rawValue) \(id) removed")
            }
        }
    }

    struct Cal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A month like `cal`; days with journal entries, sights, places or tasks are marked *.",
            discussion: "  marktime cal\n  marktime cal 2026-11 --format json")
        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions
        @Argument(help: "The month, YYYY-MM (default: this month).") var month: String?
        @Option(help: "table or json.") var format: Format = .table

        func run() async throws {
            let zone = try TZDatabase().home(try config.settings())
            let grid: MonthGrid
            if let month {
                guard let g = MonthGrid(month) else { throw InputError("'\(month)' is not a month: use YYYY-MM, e.g. 2026-11") }
                grid = g
                _ = try g.first.inRange(what: "the month '\(month)'")
            } else {
                let today = try journalDay(nil, zone)
                grid = MonthGrid(year: today.year, month: today.month)
            }
            let db = try store.openForReading()
            let from = DayPage.start(of: grid.first, in: zone), to = DayPage.start(of: grid.first.adding(days: grid.days), in: zone)
            var counts: [Int: Int] = [:]
            for e in try db.dayEntries(from: UTCTime(wholeSeconds: from), to: UTCTime(wholeSeconds: to)) {
                let day = zone.local(at: e.time).0.date.day
                counts[day, default: 0] += 1
            }
            switch format {
            case .json:
                print(JSON.array(counts.keys.sorted().map { d in
                    .object([("date", .string(CivilDate(year: grid.year, month: grid.month, day: d).description)), ("entries", .int(Int64(counts[d]!)))])
                }).render())
            case .table:
                for line in grid.lines(marked: Set(counts.keys), paint: { $0.bold.cyan }) { print(line) }
            }
        }
    }
}

/// The media folder: files written whole (temporary file, fsync, rename, fsync of
/// the folder), so a power cut leaves either no file or the complete one.
struct MediaFolder {
    let path: String

    init(_ path: String) { self.path = path }

    func keep(_ data: Data, as name: String) throws {
        let target = path + "/" + name
        guard !FileManager.default.fileExists(atPath: target) else { return }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw InputError("cannot make the media folder \(path): \(error.localizedDescription)")
        }
        let temporary = path + "/.incoming-\(getpid())-" + name
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw InputError("cannot write in \(path): \(String(cString: strerror(errno)))") }
        let ok = data.withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n <= 0 { return false }
                done += n
            }
            return fsync(fd) == 0
        }
        close(fd)
        guard ok, rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw InputError("cannot store the photo in \(path): \(reason)")
        }
        let dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 { fsync(dir); close(dir) }
    }
}
