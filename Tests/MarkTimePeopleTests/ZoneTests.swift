import MarkTimeCore
import MarkTimeDevices
import MarkTimePeople
import MarkTimeSky
import Testing

/// Seconds since the epoch of a UTC date and time.
func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> Int64 {
    UTCTime(year: y, month: mo, day: d, hour: h, minute: mi)!.nanosecondsSinceEpoch / 1_000_000_000
}

func local(_ date: String, _ time: String) -> LocalDateTime {
    LocalDateTime(date: CivilDate(iso: date)!, minuteOfDay: LocalDateTime.minuteOfDay(time)!)
}

/// Conversions against the machine's tz database, on fixed dates.
@Suite("the machine's tz database")
struct SystemZoneTests {
    let tz = TZDatabase()

    func row(_ zone: String, at seconds: Int64, userDate: String = "2026-01-15") throws -> PersonTime {
        PersonTime(name: "P", zone: try tz.rules(zone), at: seconds, userDate: CivilDate(iso: userDate)!, position: nil)
    }

    @Test func newYorkInJanuaryIsEST() throws {
        // Given 15 January 2026, 12:00 UTC; when it is read in New York
        let r = try row("America/New_York", at: utc(2026, 1, 15, 12, 0))
        // Then it is 07:00 EST, UTC−05:00, not summer time
        #expect(r.local.description == "2026-01-15 07:00")
        #expect(r.offset == ZoneOffset(seconds: -18_000, abbreviation: "EST", isDST: false))
    }

    @Test func newYorkInJulyIsEDT() throws {
        let r = try row("America/New_York", at: utc(2026, 7, 15, 12, 0), userDate: "2026-07-15")
        #expect(r.local.description == "2026-07-15 08:00")
        #expect(r.offset == ZoneOffset(seconds: -14_400, abbreviation: "EDT", isDST: true))
    }

    @Test func kolkataIsFiveAndAHalfHoursAhead() throws {
        let r = try row("Asia/Kolkata", at: utc(2026, 1, 15, 12, 0))
        #expect(r.local.description == "2026-01-15 17:30")
        #expect(r.offset == ZoneOffset(seconds: 19_800, abbreviation: "IST", isDST: false))
        #expect(r.offset.iso == "+05:30")
    }

    @Test func kathmanduIsFiveHoursFortyFiveAhead() throws {
        let r = try row("Asia/Kathmandu", at: utc(2026, 1, 15, 12, 0))
        #expect(r.local.description == "2026-01-15 17:45")
        #expect(r.offset.iso == "+05:45")
    }

    @Test func lordHoweSummerTimeIsHalfAnHour() throws {
        // Given Lord Howe Island: UTC+10:30, and +11 in (southern) summer
        let summer = try row("Australia/Lord_Howe", at: utc(2026, 1, 15, 12, 0))
        let winter = try row("Australia/Lord_Howe", at: utc(2026, 7, 15, 12, 0), userDate: "2026-07-15")
        // Then January is +11:00 DST and July +10:30 standard
        #expect(summer.offset.iso == "+11:00")
        #expect(summer.offset.isDST == true)
        #expect(winter.offset.iso == "+10:30")
        #expect(winter.offset.isDST == false)
        #expect(winter.local.description == "2026-07-15 22:30")
    }

    @Test func aRowAcrossMidnightCarriesItsDayOffset() throws {
        // Given 09:00 on 15 January in Brisbane (23:00 UTC on the 14th)
        let brisbane = try tz.rules("Australia/Brisbane")
        let t = try brisbane.instant(of: local("2026-01-15", "09:00")).seconds
        #expect(t == utc(2026, 1, 14, 23, 0))
        // When it is read in New York and in Kiritimati (UTC+14), and Kiritimati 12 h later
        let ny = try row("America/New_York", at: t)
        let line = try row("Pacific/Kiritimati", at: t)
        // Then New York is the day before, Kiritimati the same day, and 12 h later the next
        #expect(ny.local.description == "2026-01-14 18:00")
        #expect(ny.dayText == "-1d")
        #expect(line.local.description == "2026-01-15 13:00")
        #expect(line.dayText == "")
        let later = try row("Pacific/Kiritimati", at: utc(2026, 1, 15, 11, 0))
        #expect(later.local.description == "2026-01-16 01:00")
        #expect(later.dayText == "+1d")
    }

    @Test func aMinuteInTheSpringForwardGapIsRefused() throws {
        // Given New York on 8 March 2026, when clocks jump from 02:00 to 03:00
        let ny = try tz.rules("America/New_York")
        // When 02:30 is asked for, then it is refused with the reason
        #expect(ny.resolve(local("2026-03-08", "02:30")) == .skipped(
            before: ZoneOffset(seconds: -18_000, abbreviation: "EST", isDST: false),
            after: ZoneOffset(seconds: -14_400, abbreviation: "EDT", isDST: true)))
        #expect(throws: InputError("02:30 does not exist on 2026-03-08 in America/New_York: the clocks go forward 60 minutes there, from EST to EDT; choose a time outside the gap")) {
            try ny.instant(of: local("2026-03-08", "02:30"))
        }
        // And 03:00 is the first minute after the gap
        #expect(try ny.instant(of: local("2026-03-08", "03:00")).seconds == utc(2026, 3, 8, 7, 0))
    }

    @Test func aMinuteInTheFallBackOverlapTakesTheEarlier() throws {
        // Given New York on 1 November 2026, when 01:00–02:00 happens twice
        let ny = try tz.rules("America/New_York")
        let (t, note) = try ny.instant(of: local("2026-11-01", "01:30"))
        // Then 01:30 is the first one, EDT (05:30 UTC), with a note
        #expect(t == utc(2026, 11, 1, 5, 30))
        #expect(note == "01:30 happens twice on 2026-11-01 in America/New_York (clocks go back); taking the first, EDT UTC-04:00, not the second, EST UTC-05:00")
    }

    @Test func lordHoweFallsBackHalfAnHour() throws {
        // Given Lord Howe on 5 April 2026, when 01:30–02:00 happens twice
        let lh = try tz.rules("Australia/Lord_Howe")
        guard case .repeated(let earlier, _, let later, _) = lh.resolve(local("2026-04-05", "01:45")) else {
            Issue.record("01:45 should happen twice"); return
        }
        #expect(later - earlier == 1800)
    }
}

@Suite("zone names")
struct ZoneCatalogueTests {
    let catalogue = try! TZDatabase().catalogue()

    @Test func anIdentifierInAnyCaseIsAccepted() throws {
        #expect(try catalogue.resolve("America/New_York") == "America/New_York")
        #expect(try catalogue.resolve("america/new_york") == "America/New_York")
    }

    @Test func aCityNameWithSpacesIsAccepted() throws {
        #expect(try catalogue.resolve("new york") == "America/New_York")
        #expect(try catalogue.resolve("Brisbane") == "Australia/Brisbane")
        #expect(try catalogue.resolve("  BUENOS   aires ") == "America/Argentina/Buenos_Aires")
    }

    @Test func anOldNameIsStoredAsTodaysIdentifier() throws {
        #expect(try catalogue.resolve("Asia/Calcutta") == "Asia/Kolkata")
        #expect(try catalogue.resolve("calcutta") == "Asia/Kolkata")
    }

    @Test func anUnknownCityIsRefusedWithSuggestions() throws {
        #expect(throws: InputError("no time zone matches 'Brisbaine'; did you mean Australia/Brisbane? (`marktime people zones TEXT` searches the list)")) {
            try catalogue.resolve("Brisbaine")
        }
    }

    @Test func anAmbiguousNameListsTheCandidates() throws {
        #expect(throws: InputError("'eastern' could be America/New_York, America/Toronto: give the identifier")) {
            try catalogue.resolve("eastern")
        }
    }

    @Test func searchFindsZonesByPartOfTheirName() {
        #expect(catalogue.search("new york") == ["America/New_York"])
        #expect(catalogue.search("kolk") == ["Asia/Kolkata"])
    }
}

@Suite("zone name rules, on a small database")
struct SmallCatalogueTests {
    let catalogue = ZoneCatalogue(tzdataZi: """
        # version 2099z
        Z Asia/Kolkata 5:53:28 - LMT 1854 Jun 28
        Z America/Toronto -5:17:32 - LMT 1895
        Z America/New_York -4:56:2 - LMT 1883 N 18 17u
        L Asia/Kolkata Asia/Calcutta
        L America/Toronto Canada/Eastern
        L America/New_York US/Eastern
        """)

    @Test func linksFollowToTheZone() {
        #expect(catalogue.zones == ["Asia/Kolkata", "America/Toronto", "America/New_York"])
        #expect(catalogue.canonical("Asia/Calcutta") == "Asia/Kolkata")
        #expect(catalogue.canonical("Europe/Nowhere") == nil)
    }

    @Test func aCityShortFromTwoZonesIsAmbiguous() {
        #expect(throws: InputError("'Eastern' could be America/New_York, America/Toronto: give the identifier")) {
            try catalogue.resolve("Eastern")
        }
    }

    @Test func nothingCloseMeansNoSuggestion() {
        #expect(throws: InputError("no time zone matches 'Zzyzx' (`marktime people zones TEXT` searches the list)")) {
            try catalogue.resolve("Zzyzx")
        }
    }
}

@Suite("the sky where each person is")
struct SkyLightTests {
    let tz = TZDatabase()

    func berlin(at seconds: Int64) throws -> PersonTime {
        let catalogue = try tz.catalogue()
        return PersonTime(name: "Bo", zone: try tz.rules("Europe/Berlin"), at: seconds, userDate: CivilDate(iso: "2026-12-24")!,
                          position: catalogue.position(of: "Europe/Berlin"))
    }

    @Test func zone1970TabGivesDegreesAndMinutes() throws {
        // Given zone1970.tab's lines for Berlin (±DDMM) and Sitka (±DDMMSS)
        var catalogue = ZoneCatalogue(zones: ["Europe/Berlin", "America/Sitka"], links: ["Europe/Copenhagen": "Europe/Berlin"])
        catalogue.readCoordinates(zone1970Tab: """
            # comment\tline
            DE,DK\t+5230+01322\tEurope/Berlin\tmost of Germany
            US\t+571035-1351807\tAmerica/Sitka\tAlaska - Sitka area
            XX\t+52301322\tBroken/Line
            """)
        // Then each is read exactly, a link finds its zone's city, and a malformed line is skipped
        #expect(catalogue.position(of: "Europe/Berlin") == (try Position(latitude: 52.5, longitude: 13 + 22.0 / 60)))
        #expect(catalogue.position(of: "Europe/Copenhagen") == (try Position(latitude: 52.5, longitude: 13 + 22.0 / 60)))
        #expect(catalogue.position(of: "America/Sitka")
                == (try Position(latitude: 57 + 10.0 / 60 + 35.0 / 3600, longitude: -(135 + 18.0 / 60 + 7.0 / 3600))))
        #expect(catalogue.coordinates.count == 2)
    }

    @Test func berlinAfterSunsetOnChristmasEveIsCivilTwilight() throws {
        // Given Berlin at 16:30 CET on 24 December 2026 (15:30 UTC), after sunset
        let r = try berlin(at: utc(2026, 12, 24, 15, 30))
        // Then its sky is civil twilight, the Sun setting, not "day" from the clock
        #expect(r.local.description == "2026-12-24 16:30")
        #expect(r.skyText == "civil")
        #expect(r.light?.rising == false)
    }

    @Test func berlinAtMiddayIsDayAndAtMidnightIsNight() throws {
        #expect(try berlin(at: utc(2026, 12, 24, 11, 0)).skyText == "day")
        #expect(try berlin(at: utc(2026, 12, 24, 23, 0)).skyText == "night")
    }

    @Test func aZoneWithNoCityHasNoSky() throws {
        // Given Etc/GMT+5, which zone1970.tab does not place
        let catalogue = try tz.catalogue()
        let r = PersonTime(name: "X", zone: try tz.rules("Etc/GMT+5"), at: utc(2026, 12, 24, 15, 30),
                           userDate: CivilDate(iso: "2026-12-24")!, position: catalogue.position(of: "Etc/GMT+5"))
        // Then there is no light to show, and the column says so
        #expect(r.light == nil)
        #expect(r.skyText == "-")
    }

    @Test func theShipsSkyIsWorkedAtItsPosition() throws {
        // Given the ship at 27° 23' S 153° 23' E at 20:00 UTC on 14 January (06:00 zone time, after sunrise)
        let ship = PersonTime(shipAt: try Position(latitude: -27.38, longitude: 153.38), at: utc(2026, 1, 14, 20, 0),
                              userDate: CivilDate(iso: "2026-01-15")!)
        // Then it is day there, and the Sun is climbing
        #expect(ship.skyText == "day")
        #expect(ship.light?.rising == true)
    }

    @Test func coloursBlendByTheSunsAltitude() {
        #expect(SkyLight(sunAltitude: -30, rising: true).color == (12, 16, 44))
        #expect(SkyLight(sunAltitude: -18, rising: true).color == (12, 16, 44))
        #expect(SkyLight(sunAltitude: -9, rising: false).color == (40, 45, 94))
        #expect(SkyLight(sunAltitude: 40, rising: false).color == (110, 170, 226))
    }

    @Test func sunriseIsRoseAndSunsetMauve() {
        #expect(SkyLight(sunAltitude: SunEvents.horizon, rising: true).color == (214, 118, 96))
        #expect(SkyLight(sunAltitude: SunEvents.horizon, rising: false).color == (182, 86, 112))
    }
}

@Suite("the ship's zone")
struct ShipZoneTests {
    @Test func zoneDescriptionIsSignedSoThatZTPlusZDIsUT() {
        #expect(NauticalZone(longitude: 150).description == -10)
        #expect(NauticalZone(longitude: 150).text == "ZD −10")
        #expect(NauticalZone(longitude: -75).description == 5)
        #expect(NauticalZone(longitude: 7.4).description == 0)
        #expect(NauticalZone(longitude: 7.5).description == -1)
        #expect(NauticalZone(longitude: 179.9).description == -12)
        #expect(NauticalZone(longitude: -179.9).description == 12)
    }

    @Test func theShipRowKeepsZoneTime() throws {
        // Given the ship at 153° 22' E at 23:00 UTC on 14 January
        let ship = PersonTime(shipAt: try Position(latitude: -27.38, longitude: 153.38), at: utc(2026, 1, 14, 23, 0),
                              userDate: CivilDate(iso: "2026-01-15")!)
        // Then zone time is UT + 10 h: 09:00 on the 15th, ZD −10
        #expect(ship.local.description == "2026-01-15 09:00")
        #expect(ship.zone == "ZD −10")
        #expect(ship.offset.iso == "+10:00")
    }
}
