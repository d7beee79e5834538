import Foundation
import MarkTimeCore
import MarkTimeDevices
@testable import MarkTimePeople
import RigSupport
import Testing

/// The TZif reader (RFC 8536) and its footer's POSIX rule, on their own.
@Suite("TZif and POSIX TZ rules")
struct TZifTests {
    @Test func newYorksRuleChangesAtTwoInTheMorningLocal() throws {
        let rule = try #require(POSIXRule("EST5EDT,M3.2.0,M11.1.0"))
        // 8 March 2026, 02:00 EST is 07:00 UTC; 1 November 2026, 02:00 EDT is 06:00 UTC
        #expect(rule.offset(at: utc(2026, 3, 8, 6, 59) + 59) == ZoneOffset(seconds: -18_000, abbreviation: "EST", isDST: false))
        #expect(rule.offset(at: utc(2026, 3, 8, 7, 0)) == ZoneOffset(seconds: -14_400, abbreviation: "EDT", isDST: true))
        #expect(rule.offset(at: utc(2026, 11, 1, 5, 59) + 59).isDST)
        #expect(rule.offset(at: utc(2026, 11, 1, 6, 0)) == ZoneOffset(seconds: -18_000, abbreviation: "EST", isDST: false))
    }

    @Test func aSouthernRuleKeepsDaylightTimeAcrossTheNewYear() throws {
        // Sydney: AEDT from the first Sunday of October 02:00 to the first Sunday of April 03:00
        let rule = try #require(POSIXRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(rule.offset(at: utc(2026, 1, 1, 0, 0)).abbreviation == "AEDT")
        // 5 April 2026, 03:00 AEDT is 16:00 UTC on the 4th
        #expect(rule.offset(at: utc(2026, 4, 4, 15, 59)).abbreviation == "AEDT")
        #expect(rule.offset(at: utc(2026, 4, 4, 16, 0)) == ZoneOffset(seconds: 36_000, abbreviation: "AEST", isDST: false))
        // 4 October 2026, 02:00 AEST is 16:00 UTC on the 3rd
        #expect(rule.offset(at: utc(2026, 10, 3, 16, 0)) == ZoneOffset(seconds: 39_600, abbreviation: "AEDT", isDST: true))
    }

    @Test func anglesNamesHalfHoursAndNegativeDaylightTimeAreRead() throws {
        #expect(POSIXRule("<+0545>-5:45")?.offset(at: 0) == ZoneOffset(seconds: 20_700, abbreviation: "+0545", isDST: false))
        let lordHowe = try #require(POSIXRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"))
        #expect(lordHowe.offset(at: utc(2026, 1, 15, 12, 0)) == ZoneOffset(seconds: 39_600, abbreviation: "+11", isDST: true))
        // Dublin: IST (+1) is its standard time, GMT its winter "daylight" time
        let dublin = try #require(POSIXRule("IST-1GMT0,M10.5.0,M3.5.0/1"))
        #expect(dublin.offset(at: utc(2026, 1, 15, 12, 0)) == ZoneOffset(seconds: 0, abbreviation: "GMT", isDST: true))
        #expect(dublin.offset(at: utc(2026, 7, 15, 12, 0)) == ZoneOffset(seconds: 3600, abbreviation: "IST", isDST: false))
    }

    @Test func notARuleIsNil() {
        #expect(POSIXRule("") == nil)
        #expect(POSIXRule("E5") == nil)
        #expect(POSIXRule("EST5EDT,M13.1.0,M11.1.0") == nil)
        #expect(POSIXRule("EST5EDT,M3.2.0") == nil)
        // A crafted footer's huge numbers are no rule, never an overflow
        #expect(POSIXRule("ABC3000000000000000") == nil)
        #expect(POSIXRule("ABC168") == nil)
        #expect(POSIXRule("EST5EDT,M3.2.0/99999999999999,M11.1.0") == nil)
        #expect(POSIXRule("EST5EDT,J99999999999999999999,M11.1.0") == nil)
    }

    @Test func aTruncatedOrForeignFileIsRefused() {
        #expect(throws: TZif.Unreadable(description: "not a TZif file")) { try TZif(Array("#!/bin/sh\n".utf8)) }
        #expect(throws: TZif.Unreadable(description: "the file ends early")) { try TZif(Array("TZif2".utf8)) }
    }
}

/// Every zone of the machine's tz database, read here, against glibc's `localtime` under
/// `TZ` (Python's `time.localtime`: one process, one thread, `tzset` per zone).
@Suite("TZif against glibc", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
                                      "glibc is asked through Python (not in the arm64 test root)"))
struct TZifParityTests {
    /// The zones of tzdata.zi, at the 1st and the 15th of each month of 1995, 2026, 2040 and
    /// 2100 at 00:00 and 12:00 UTC (the files' transitions, then their footers' rules), and
    /// zones with odd rules every 6 hours of 2026 (each change to within 6 hours).
    static let script = #"""
    import calendar, os, sys, time
    zi = os.environ.get("TZDIR", "/usr/share/zoneinfo")
    zones = [l.split()[1] for l in open(zi + "/tzdata.zi") if l.startswith("Z ")]
    instants = [calendar.timegm((y, m, d, h, 0, 0)) for y in (1995, 2026, 2040, 2100) for m in range(1, 13) for d in (1, 15) for h in (0, 12)]
    odd = ["America/New_York", "Europe/London", "Europe/Dublin", "Australia/Lord_Howe", "Australia/Sydney", "Pacific/Chatham",
           "America/St_Johns", "Africa/Casablanca", "America/Santiago", "Pacific/Easter", "Asia/Tehran", "America/Havana",
           "Antarctica/Troll", "America/Nuuk", "America/Asuncion", "Asia/Gaza", "Atlantic/Azores", "America/Scoresbysund",
           "Asia/Jerusalem", "Africa/Cairo", "Europe/Chisinau", "Pacific/Norfolk"]
    start = calendar.timegm((2026, 1, 1, 0, 0, 0))
    out = sys.stdout
    for z in zones:
        os.environ["TZ"] = ":" + zi + "/" + z
        time.tzset()
        for t in instants + ([start + i * 21600 for i in range(1460)] if z in odd else []):
            lt = time.localtime(t)
            out.write("%s\t%d\t%d\t%s\t%d\n" % (z, t, lt.tm_gmtoff, lt.tm_zone, 1 if lt.tm_isdst > 0 else 0))
    """#

    @Test func everyZoneAgreesWithGlibc() throws {
        let python = try runCommand("/usr/bin/python3", ["-c", Self.script], environment: ProcessInfo.processInfo.environment)
        #expect(python.status == 0, "\(python.stderr)")
        let tz = TZDatabase()
        var rules: [String: SystemZoneRules] = [:]
        var compared = 0, differ: [String] = []
        for line in python.stdout.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count == 5, let t = Int64(f[1]), let offset = Int(f[2]) else { Issue.record("cannot read \(line)"); continue }
            let zone = String(f[0])
            if rules[zone] == nil { rules[zone] = try tz.rules(zone) }
            let glibc = ZoneOffset(seconds: offset, abbreviation: String(f[3]), isDST: f[4] == "1")
            let ours = rules[zone]!.offset(atSecondsSinceEpoch: t)
            compared += 1
            if ours != glibc, differ.count < 10 { differ.append("\(zone) at \(t): \(ours) against glibc's \(glibc)") }
        }
        // Then every zone was compared, and none differs
        #expect(rules.count > 300)
        #expect(compared == rules.count * 192 + 22 * 1460)
        #expect(differ == [])
    }
}
