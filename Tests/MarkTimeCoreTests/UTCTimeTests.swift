import MarkTimeCore
import Testing

@Suite("UTC time and Mark Time's format")
struct UTCTimeTests {
    @Test func markTimeFormat() throws {
        let t = try #require(UTCTime(year: 2026, month: 11, day: 21, hour: 13, minute: 1, second: 46, nanosecond: 654_000_000))
        #expect(t.sightFormat == "21d 13h 01m 46.654s")
        #expect(t.iso8601 == "2026-11-21T13:01:46.654Z")
    }

    @Test func midnight() throws {
        let t = try #require(UTCTime(year: 2026, month: 11, day: 22))
        #expect(t.sightFormat == "22d 00h 00m 00.000s")
        #expect(t.iso8601 == "2026-11-22T00:00:00.000Z")
    }

    @Test func roundingCarriesAcrossAMonthBoundary() throws {
        // Given 23:59:59.9996 on the last day of January
        let t = try #require(UTCTime(year: 2026, month: 1, day: 31, hour: 23, minute: 59, second: 59, nanosecond: 999_600_000))
        // Then the millisecond rounding carries into 1 February
        #expect(t.sightFormat == "01d 00h 00m 00.000s")
        #expect(t.iso8601 == "2026-02-01T00:00:00.000Z")
    }

    @Test func roundingCarriesAcrossAYearBoundary() throws {
        let t = try #require(UTCTime(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59, nanosecond: 999_500_000))
        #expect(t.iso8601 == "2027-01-01T00:00:00.000Z")
    }

    @Test func justBeforeTheCarryStaysInTheMonth() throws {
        let t = try #require(UTCTime(year: 2026, month: 2, day: 28, hour: 23, minute: 59, second: 59, nanosecond: 999_499_999))
        #expect(t.sightFormat == "28d 23h 59m 59.999s")
    }

    @Test func leapDay() throws {
        let t = try #require(UTCTime(year: 2028, month: 2, day: 29, hour: 12))
        #expect(t.iso8601 == "2028-02-29T12:00:00.000Z")
        #expect(UTCTime(year: 2026, month: 2, day: 29) == nil)
    }

    @Test func epochArithmetic() throws {
        #expect(UTCTime(year: 1970, month: 1, day: 1)?.nanosecondsSinceEpoch == 0)
        #expect(UTCTime(year: 2007, month: 4, day: 8, hour: 9, minute: 52, second: 55)?.nanosecondsSinceEpoch == 1_176_025_975_000_000_000)
        #expect(UTCTime(nanosecondsSinceEpoch: -1_000_000).iso8601 == "1969-12-31T23:59:59.999Z")
    }

    @Test func parsesADate() throws {
        let (t, dateOnly) = try #require(UTCTime.parse("2026-11-21"))
        #expect(t.iso8601 == "2026-11-21T00:00:00.000Z")
        #expect(dateOnly)
    }

    @Test func parsesISO8601WithFraction() throws {
        let (t, dateOnly) = try #require(UTCTime.parse("2026-11-21T13:01:46.654Z"))
        #expect(t.nanosecondsSinceEpoch == 1_795_266_106_654_000_000)
        #expect(!dateOnly)
    }

    @Test(arguments: ["2026-13-01", "2026-02-30", "21/11/2026", "2026-11-21T25:00", "2026-11-21T10:00:00.", ""])
    func refusesMalformedDates(text: String) {
        #expect(UTCTime.parse(text) == nil)
    }

    @Test("23:59:60 is read at a real leap second, as the kernel's clock shows it: second 59 again")
    func aLeapSecondIsRead() throws {
        // When the last leap second and one from 1990 are read, the first with a fraction
        let (t, dateOnly) = try UTCTime.read("2016-12-31T23:59:60.5Z", what: "--at")
        let (old, _) = try UTCTime.read("1990-12-31T23:59:60Z", what: "--at")
        // Then each is second 59 of its day again, with its fraction
        #expect(t.iso8601 == "2016-12-31T23:59:59.500Z")
        #expect(!dateOnly)
        #expect(old.iso8601 == "1990-12-31T23:59:59.000Z")
    }

    @Test("Second 60 anywhere else is refused with one sentence that says where it can be", arguments: [
        "2016-12-30T23:59:60Z", "2016-12-31T12:00:60Z", "2017-06-30T23:59:60Z",
    ])
    func secondSixtyElsewhereIsRefused(_ text: String) {
        #expect(UTCTime.parse(text) == nil)
        #expect(throws: InputError("--at '\(text)' has second 60, which only a leap second has: at 23:59:60 UTC on the days the IERS "
            + "added one (the last was 2016-12-31); write second 59 or less")) { try UTCTime.read(text, what: "--at") }
    }
}
