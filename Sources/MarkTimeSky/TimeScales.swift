import MarkTimeCore

/// An instant on the time scales the almanac needs: UTC as the navigator's clock gives
/// it, UT1 (the Earth's rotation, the argument of GHA) and TT (the argument of the
/// ephemerides), as Julian dates, with how uncertain UT1 is.
///
/// UT1 = TT − ΔT and TT = UTC + (TAI − UTC) + 32.184 s. Within the tables below ΔT is
/// interpolated between IERS values six months apart (±0.05 s). Past their end ΔT is
/// held at the last value and its uncertainty grows by 0.9 s a year, the fastest
/// yearly change the table shows (1993–1994); 0.9 s is 0.23′ of GHA.
public struct SkyTime: Hashable, Sendable {
    /// Julian date, UTC.
    public let utc: Double
    /// Julian date, UT1.
    public let ut1: Double
    /// Julian date, TT.
    public let tt: Double
    /// TT − UT1, seconds.
    public let deltaT: Double
    /// How far UT1 may be wrong, seconds.
    public let ut1Uncertainty: Double

    /// The years the almanac covers.
    public static let years = 1990...2060

    /// `time` on the almanac's scales, or refused in words outside its years.
    public static func checked(_ time: UTCTime) throws(InputError) -> SkyTime {
        guard let t = SkyTime(time) else { throw InputError("\(time.iso8601) is outside the almanac's years \(years.lowerBound)–\(years.upperBound)") }
        return t
    }

    /// nil outside 1990–2060.
    public init?(_ time: UTCTime) {
        guard Self.years.contains(time.millisecondFields.year) else { return nil }
        self.init(julianUTC: 2_440_587.5 + time.secondsSinceEpoch / 86_400)
    }

    init(julianUTC jd: Double) {
        utc = jd
        let (dt, uncertainty) = TimeTables.deltaT(julianUTC: jd)
        deltaT = dt
        ut1Uncertainty = uncertainty
        let ttMinusUTC = TimeTables.taiMinusUTC(julianUTC: jd) + 32.184
        tt = jd + ttMinusUTC / 86_400
        ut1 = tt - dt / 86_400
    }

    /// UT1 − UTC, seconds.
    public var ut1MinusUTC: Double { (ut1 - utc) * 86_400 }

    /// Julian centuries of TT since J2000.0.
    var centuriesTT: Double { (tt - 2_451_545) / 36_525 }
}

/// The leap-second and ΔT tables.
enum TimeTables {
    /// TAI − UTC from each date (Julian date at 0h UTC). Source: IERS Bulletin C and its
    /// Leap_Second.dat. The last leap second was 2017-01-01; one announced later must be
    /// added here.
    static let leapSeconds: [(jd: Double, seconds: Double)] = [
        (2_447_892.5, 25), // 1990-01-01
        (2_448_257.5, 26), // 1991-01-01
        (2_448_804.5, 27), // 1992-07-01
        (2_449_169.5, 28), // 1993-07-01
        (2_449_534.5, 29), // 1994-07-01
        (2_450_083.5, 30), // 1996-01-01
        (2_450_630.5, 31), // 1997-07-01
        (2_451_179.5, 32), // 1999-01-01
        (2_453_736.5, 33), // 2006-01-01
        (2_454_832.5, 34), // 2009-01-01
        (2_456_109.5, 35), // 2012-07-01
        (2_457_204.5, 36), // 2015-07-01
        (2_457_754.5, 37), // 2017-01-01
    ]

    static func taiMinusUTC(julianUTC jd: Double) -> Double {
        leapSeconds.last { $0.jd <= jd }?.seconds ?? 24
    }

    /// ΔT = TT − UT1 in seconds on 1 January and 1 July of each year, from 1990, and on
    /// 2026-10-01, the last measured value. Source: USNO/IERS "deltat.data" (measured
    /// ΔT on the first of each month, from IERS Bulletin B UT1 − UTC).
    static let deltaTFrom1990: [Double] = [
        56.8553, 57.2226, 57.5653, 57.9576, 58.3092, 58.7410, 59.1218, 59.5850, 59.9845, 60.4012, // 1990–1994
        60.7853, 61.2454, 61.6287, 61.9969, 62.2950, 62.6571, 62.9659, 63.2844, 63.4673, 63.6642, // 1995–1999
        63.8285, 63.9799, 64.0908, 64.2117, 64.2998, 64.4132, 64.4734, 64.5512, 64.5736, 64.6530, // 2000–2004
        64.6876, 64.7995, 64.8452, 64.9895, 65.1464, 65.3413, 65.4573, 65.6288, 65.7768, 65.9509, // 2005–2009
        66.0699, 66.2409, 66.3246, 66.4749, 66.6030, 66.7708, 66.9069, 67.1266, 67.2810, 67.4858, // 2010–2014
        67.6439, 67.8606, 68.1024, 68.3964, 68.5927, 68.8245, 68.9676, 69.1134, 69.2202, 69.3582, // 2015–2019
        69.3612, 69.4241, 69.3594, 69.3514, 69.2945, 69.2527, 69.2039, 69.2201, 69.1752, 69.1879, // 2020–2024
        69.1377, 69.1406, 69.1099, 69.1695,                                                     // 2025–2026
    ]
    static let lastMeasured = (jd: 2_461_314.5, seconds: 69.2065) // 2026-10-01

    static let points: [(jd: Double, seconds: Double)] = deltaTFrom1990.enumerated().map { i, seconds in
        (julianDay(year: 1990 + i / 2, month: i % 2 == 0 ? 1 : 7, day: 1), seconds)
    } + [lastMeasured]

    /// ΔT and its uncertainty (seconds) at a UTC Julian date.
    static func deltaT(julianUTC jd: Double) -> (Double, Double) {
        if jd >= lastMeasured.jd {
            return (lastMeasured.seconds, 0.05 + 0.9 * (jd - lastMeasured.jd) / 365.25)
        }
        guard let after = points.firstIndex(where: { $0.jd > jd }), after > 0 else {
            return (points[0].seconds, 0.05)
        }
        let a = points[after - 1], b = points[after]
        return (a.seconds + (b.seconds - a.seconds) * (jd - a.jd) / (b.jd - a.jd), 0.05)
    }

    /// The Julian date at 0h of a Gregorian date.
    static func julianDay(year: Int, month: Int, day: Int) -> Double {
        Double(CivilDate(year: year, month: month, day: day).daysSinceEpoch) + 2_440_587.5
    }
}
