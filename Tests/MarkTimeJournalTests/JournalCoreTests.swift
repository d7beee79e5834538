import MarkTimeCore
import MarkTimeJournal
import Testing

/// A minimal PNG: signature and IHDR.
func png(width: Int, height: Int) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    // Built in typed steps: Swift 6.2 cannot type-check one long chain of literals in time.
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header: [UInt8] = be32(13) + Array("IHDR".utf8)
    let size: [UInt8] = be32(width) + be32(height)
    let rest: [UInt8] = [8, 2, 0, 0, 0, 0, 0, 0, 0]
    return signature + header + size + rest
}

/// A minimal JPEG: SOI, an EXIF APP1 (little-endian TIFF with DateTimeOriginal and
/// OffsetTimeOriginal), SOF0 with the size, EOI.
func jpeg(width: Int, height: Int, taken: String?, offset: String? = nil) -> [UInt8] {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
    func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    var out: [UInt8] = [0xFF, 0xD8]
    if let taken {
        // TIFF: header (8), IFD0 at 8 with one entry (ExifIFD → 26), sub-IFD at 26 with two entries, strings after.
        let tags = [(0x9003, taken + "\0"), (0x9011, (offset ?? "+00:00") + "\0")].prefix(offset == nil ? 1 : 2)
        let sub = 26, strings = sub + 2 + tags.count * 12 + 4
        var tiff: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
        tiff += le16(1) + le16(0x8769) + le16(4) + le32(1) + le32(sub) + le32(0)
        tiff += le16(tags.count)
        var at = strings, data: [UInt8] = []
        for (tag, text) in tags {
            tiff += le16(tag) + le16(2) + le32(text.utf8.count) + le32(at)
            data += Array(text.utf8)
            at += text.utf8.count
        }
        tiff += le32(0) + data
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        out += [0xFF, 0xE1] + be16(app1.count + 2) + app1
    }
    let sof0: [UInt8] = [0xFF, 0xC0] + be16(17) + [8]
    let components: [UInt8] = [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    out += sof0 + be16(height) + be16(width) + components
    out += [0xFF, 0xD9]
    return out
}

@Suite("image headers")
struct ImageInfoTests {
    @Test func aPNGIsKnownByItsMagicBytes() {
        let info = ImageInfo(png(width: 640, height: 480))
        #expect(info?.format == .png)
        #expect(info?.width == 640)
        #expect(info?.height == 480)
        #expect(info?.captured == nil)
    }

    @Test func aJPEGGivesItsSizeAndEXIFCaptureTime() {
        let info = ImageInfo(jpeg(width: 4032, height: 3024, taken: "2026:11:21 10:15:30", offset: "+10:00"))
        #expect(info?.format == .jpeg)
        #expect(info?.width == 4032)
        #expect(info?.height == 3024)
        #expect(info?.captured == LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 21), minuteOfDay: 615))
        #expect(info?.capturedSecond == 30)
        #expect(info?.capturedOffset == 36_000)
    }

    @Test func aJPEGWithoutEXIFHasNoCaptureTime() {
        let info = ImageInfo(jpeg(width: 800, height: 600, taken: nil))
        #expect(info?.width == 800)
        #expect(info?.captured == nil)
    }

    @Test func textIsNotAnImageWhateverItsName() {
        #expect(ImageInfo(Array("This is not a photo, whatever its .jpg says\n".utf8)) == nil)
        #expect(ImageInfo([0xFF, 0xD8, 0xFF]) == nil)
        #expect(ImageInfo(Array(png(width: 1, height: 1).prefix(20))) == nil)
    }
}

@Suite("the calendar grid")
struct MonthGridTests {
    @Test func aMonthStartingOnSunday() {
        #expect(MonthGrid(year: 2026, month: 2).lines(marked: [1, 14, 28]) == [
            "   February 2026",
            "Su Mo Tu We Th Fr Sa",
            " 1* 2  3  4  5  6  7",
            " 8  9 10 11 12 13 14*",
            "15 16 17 18 19 20 21",
            "22 23 24 25 26 27 28*",
        ])
    }

    @Test func aMonthStartingOnSaturday() {
        #expect(MonthGrid(year: 2026, month: 8).lines(marked: [31]) == [
            "    August 2026",
            "Su Mo Tu We Th Fr Sa",
            "                   1",
            " 2  3  4  5  6  7  8",
            " 9 10 11 12 13 14 15",
            "16 17 18 19 20 21 22",
            "23 24 25 26 27 28 29",
            "30 31*",
        ])
    }

    @Test func februaryOfALeapYear() {
        #expect(MonthGrid(year: 2028, month: 2).lines(marked: [29], paint: { "<\($0)>" }) == [
            "   February 2028",
            "Su Mo Tu We Th Fr Sa",
            "       1  2  3  4  5",
            " 6  7  8  9 10 11 12",
            "13 14 15 16 17 18 19",
            "20 21 22 23 24 25 26",
            "27 28 <29>*",
        ])
    }

    @Test func aMonthIsReadAsYYYYMM() {
        #expect(MonthGrid("2026-11") == MonthGrid(year: 2026, month: 11))
        #expect(MonthGrid("2026-13") == nil)
        #expect(MonthGrid("Nov") == nil)
    }
}

@Suite("the day's page")
struct DayPageTests {
    let aest = FixedZone("Australia/Brisbane", offset: ZoneOffset(seconds: 36_000, abbreviation: "AEST", isDST: false))
    let date = CivilDate(year: 2026, month: 11, day: 21)

    /// 2026-11-21 in Brisbane: `hh:mm` local as UTC.
    func at(_ h: Int, _ m: Int, _ s: Int = 0, _ ms: Int = 0) -> UTCTime {
        UTCTime(nanosecondsSinceEpoch: (LocalDateTime(date: date, minuteOfDay: h * 60 + m).secondsAsUTC - 36_000 + Int64(s)) * 1_000_000_000
            + Int64(ms) * 1_000_000)
    }

    @Test func theDaySpansLocalMidnightToMidnight() {
        let span = DayPage.span(of: date, in: aest)
        #expect(UTCTime(nanosecondsSinceEpoch: span.lowerBound * 1_000_000_000).iso8601 == "2026-11-20T14:00:00.000Z")
        #expect(UTCTime(nanosecondsSinceEpoch: span.upperBound * 1_000_000_000).iso8601 == "2026-11-21T14:00:00.000Z")
    }

    @Test func markdownForAKnownDay() throws {
        let home = try Position(latitude: -(27 + 22.84 / 60), longitude: 153 + 22.84 / 60)
        var page = DayPage(date: date, zone: aest, entries: [
            DayEntry(kind: .reminder, time: at(16, 30), id: 2, text: "Wind the chronometer", detail: "late"),
            DayEntry(kind: .moment, time: at(6, 5), id: 1, text: "Dolphins off the bow"),
            DayEntry(kind: .sight, time: at(23, 1, 46, 654), id: 7, text: "Sun", position: home, hs: "45° 12'.3"),
            DayEntry(kind: .place, time: at(9, 2), id: 3, text: "Home", position: home, detail: "enter Me"),
            DayEntry(kind: .checkin, time: at(9, 30), id: 4, text: "Home", position: home),
            DayEntry(kind: .photo, time: at(18, 45), id: 5, text: "Green flash", file: "/var/lib/marktime/media/ab12.jpg", width: 4032, height: 3024),
            DayEntry(kind: .task, time: at(12, 0), id: 6, text: "Plot the noon sight"),
            DayEntry(kind: .place, time: at(19, 0), id: 8, text: "Home", position: home, detail: "leave Me"),
        ])
        page.sun = DaySun(entries: page.entries, fix: nil, home: nil, span: DayPage.span(of: date, in: aest))
        #expect(page.markdown == """
            # Saturday 21 November 2026

            Times are Australia/Brisbane (AEST, UTC+10:00); sights in UTC.

            Sun at 27° 22'.84 S  153° 22'.84 E (the day's last sight): astronomical dawn 03:17, nautical dawn 03:49, civil dawn 04:20, sunrise 04:45, sunset 18:20, civil dusk 18:45, nautical dusk 19:16, astronomical dusk 19:48

            - **06:05** Dolphins off the bow
            - **09:02** Arrived at Home at 27° 22'.84 S  153° 22'.84 E
            - **09:30** Checked in at Home (27° 22'.84 S  153° 22'.84 E)
            - **12:00** Done: Plot the noon sight
            - **16:30** Reminder: Wind the chronometer (late)
            - **18:45** Photo: Green flash (4032×3024) ![Green flash](/var/lib/marktime/media/ab12.jpg)
            - **19:00** Left Home at 27° 22'.84 S  153° 22'.84 E
            - **23:01** Sight #7 at 13h 01m 46.654s UTC, Sun, Hs 45° 12'.3 at 27° 22'.84 S  153° 22'.84 E

            """)
    }

    @Test func anEmptyDaySaysSo() {
        #expect(DayPage(date: date, zone: aest, entries: []).markdown == """
            # Saturday 21 November 2026

            Times are Australia/Brisbane (AEST, UTC+10:00); sights in UTC.

            Sun: no position for this day; add a home place (`marktime place add Home --kind home --position POS`)

            Nothing recorded.

            """)
    }

    @Test func theSunIsWorkedAtTheDaysLastPositionThenTheFixThenHome() throws {
        // Given a check-in early and a moment without a position later, a fix, and a home place
        let span = DayPage.span(of: date, in: aest)
        let checkin = try Position(latitude: -27.5, longitude: 153.1), fix = try Position(latitude: -27, longitude: 153.5)
        let home = (name: "Home", position: try Position(latitude: -27.4, longitude: 153.0))
        let entries = [DayEntry(kind: .checkin, time: at(9, 0), text: "Pier", position: checkin),
                       DayEntry(kind: .moment, time: at(10, 0), text: "Tea")]
        // Then the check-in wins, then the fix, then home; with none there is no Sun
        #expect(DaySun(entries: entries, fix: fix, home: home, span: span)?.source == .entry(.checkin))
        #expect(DaySun(entries: entries, fix: fix, home: home, span: span)?.position == checkin)
        #expect(DaySun(entries: [], fix: fix, home: home, span: span)?.source == .fix)
        #expect(DaySun(entries: [], fix: nil, home: home, span: span)?.source == .home("Home"))
        #expect(DaySun(entries: [entries[1]], fix: nil, home: nil, span: span) == nil)
    }

    @Test func brisbanesLongestDayMatchesThePublishedTimes() throws {
        // Given Brisbane (27° 28' S 153° 02' E) on 22 December 2026
        let day = CivilDate(year: 2026, month: 12, day: 22)
        let brisbane = (name: "Home", position: try Position(latitude: -(27 + 28.0 / 60), longitude: 153 + 2.0 / 60))
        let page = DayPage(date: day, zone: aest, entries: [],
                           sun: DaySun(entries: [], fix: nil, home: brisbane, span: DayPage.span(of: day, in: aest)))
        // Then sunrise is 04:50 and sunset 18:43, as published for that day (British Expats'
        // wiki and australien-reisetipps.de, from Geoscience Australia's tables)
        #expect(page.sunLine == "Sun at 27° 28'.00 S  153° 02'.00 E (home place Home): astronomical dawn 03:17, "
                + "nautical dawn 03:51, civil dawn 04:23, sunrise 04:50, sunset 18:43, civil dusk 19:09, nautical dusk 19:41, "
                + "astronomical dusk 20:15")
    }

    @Test func theMidnightSunNeverSets() throws {
        // Given Tromsø (69° 39' N 18° 57' E) on 21 June 2026, in CEST
        let cest = FixedZone("Europe/Oslo", offset: ZoneOffset(seconds: 7200, abbreviation: "CEST", isDST: true))
        let day = CivilDate(year: 2026, month: 6, day: 21)
        let tromso = (name: "Home", position: try Position(latitude: 69.65, longitude: 18.95))
        let page = DayPage(date: day, zone: cest, entries: [],
                           sun: DaySun(entries: [], fix: nil, home: tromso, span: DayPage.span(of: day, in: cest)))
        // Then the line says so rather than listing nothing
        #expect(page.sunLine == "Sun at 69° 39'.00 N  18° 57'.00 E (home place Home): the Sun does not set")
    }

    @Test("Past the almanac's end the Sun is unknown, not down: the equator on 1 January 2061")
    func pastTheAlmanacTheSunIsUnknown() throws {
        // Given the equator's 1 January 2061 and 31 December 1989, outside the almanac's years, in UTC
        let utc = FixedZone("UTC", offset: ZoneOffset(seconds: 0, abbreviation: "UTC", isDST: false))
        let equator = (name: "Home", position: try Position(latitude: 0, longitude: 0))
        func line(_ day: CivilDate, _ zone: FixedZone) -> String {
            DayPage(date: day, zone: zone, entries: [], sun: DaySun(entries: [], fix: nil, home: equator, span: DayPage.span(of: day, in: zone))).sunLine
        }
        // Then the line names the almanac's years, never "the Sun does not rise"
        #expect(line(CivilDate(year: 2061, month: 1, day: 1), utc)
            == "Sun at 0° 00'.00 N  0° 00'.00 E (home place Home): no times for this day: the almanac's years end with 2060")
        #expect(line(CivilDate(year: 1989, month: 12, day: 31), utc)
            == "Sun at 0° 00'.00 N  0° 00'.00 E (home place Home): no times for this day: the almanac's years begin with 1990")
        // And its last day is whole in UTC; at UTC−10 the almanac ends at 14:00 local, so that
        // evening's dusks are given and the next dawns (past its end) are said to be unknown
        #expect(line(CivilDate(year: 2060, month: 12, day: 31), utc) == "Sun at 0° 00'.00 N  0° 00'.00 E (home place Home): astronomical dawn 04:45, "
            + "nautical dawn 05:11, civil dawn 05:37, sunrise 06:00, sunset 18:07, civil dusk 18:29, nautical dusk 18:56, astronomical dusk 19:22")
        let hawaii = FixedZone("Pacific/Honolulu", offset: ZoneOffset(seconds: -36_000, abbreviation: "HST", isDST: false))
        #expect(line(CivilDate(year: 2060, month: 12, day: 31), hawaii) == "Sun at 0° 00'.00 N  0° 00'.00 E (home place Home): sunset 08:07, "
            + "civil dusk 08:29, nautical dusk 08:56, astronomical dusk 09:22; no later times: the almanac's years end with 2060")
    }
}
