import Foundation
import MarkTimeCore

/// Which published tables a reduction from an assumed position is laid out for.
public enum SightTables: String, Hashable, Sendable, CaseIterable {
    /// HO 229 (Pub. No. 229): Hc and d to 0.1′, Z to 0.1°.
    case ho229 = "ho229"
    /// Pub. No. 249 Volumes 2 and 3: Hc and d to 1′, Z to 1°.
    case pub249 = "pub249"

    /// Arc-minutes Hc and d are printed to, and degrees Z is printed to.
    var minuteStep: Double { self == .ho229 ? 0.1 : 1 }
    var azimuthStep: Double { self == .ho229 ? 0.1 : 1 }
}

/// A sight reduced as a student does with HO 229 or Pub. 249: from an assumed position
/// (whole-degree latitude, a longitude making LHA whole), the tables entered with the whole
/// degree of declination, and Hc interpolated for the declination's minutes by d.
public struct TableReduction: Hashable, Sendable {
    public var tables: SightTables
    /// The assumed position: whole-degree latitude, longitude with GHA + longitude whole.
    public var assumedPosition: Position
    /// GHA of the body, degrees.
    public var gha: Double
    /// LHA, a whole number of degrees, 0–359.
    public var lha: Int
    /// Declination, degrees, north positive.
    public var declination: Double
    /// The whole degree of declination the tables are entered with, and the minutes over it.
    public var declinationDegrees: Int
    public var declinationIncrement: Double
    /// Whether latitude and declination are of the same name (both north or both south).
    public var sameName: Bool
    /// The tabulated Hc (degrees, rounded as the tables print it), d (arc-minutes of Hc per
    /// degree of declination, signed, rounded) and Z (degrees, rounded) at the whole degree.
    public var tabulatedHc: Double
    public var d: Double
    public var tabulatedZ: Double
    /// d × increment / 60, arc-minutes, rounded as the interpolation table gives it.
    public var dCorrection: Double
    /// Hc as the tables give it: tabulated Hc + d correction.
    public var hc: Double
    /// Hc worked exactly at the assumed position: the tables' Hc differs from it by rounding
    /// and by the second difference HO 229's double-second-difference correction takes up.
    public var exactHc: Double
    /// Zn, true, from the tabulated Z by the tables' rules, as a hand working takes it (Z is
    /// not interpolated for the declination's minutes), and Zn worked exactly at the AP.
    public var zn: Double
    public var exactZn: Double
    /// Ho, degrees, and the intercept Ho − Hc (tables' Hc), nautical miles, positive toward.
    public var ho: Double
    public var intercept: Double

    /// The reduction of observed altitude `ho` of a body at `gha` and `declination` (degrees)
    /// from an assumed position chosen near `dr`.
    public init(ho: Double, gha: Double, declination: Double, near dr: Position, tables: SightTables = .ho229) {
        self.tables = tables
        self.ho = ho
        self.gha = normalized(gha)
        self.declination = declination
        var apLat = dr.latitude.rounded()
        if apLat.magnitude >= 90 { apLat = 89 * (apLat < 0 ? -1 : 1) }
        let lhaWhole = (self.gha + dr.longitude).rounded()
        var apLon = lhaWhole - self.gha
        while apLon > 180 { apLon -= 360 }
        while apLon < -180 { apLon += 360 }
        assumedPosition = try! Position(latitude: apLat, longitude: apLon)
        let hourAngle = Int(normalized(lhaWhole)) % 360
        lha = hourAngle
        // Same name: both north or both south (a declination of 0 takes the latitude's name).
        let north = apLat >= 0
        sameName = declination == 0 || (declination > 0) == north
        let decMagnitude = declination.magnitude
        declinationDegrees = Int(decMagnitude.rounded(.down))
        declinationIncrement = (decMagnitude - Double(declinationDegrees)) * 60
        // The tables' arguments: latitude's magnitude, declination signed by name.
        let lat = apLat.magnitude
        let name: Double = sameName ? 1 : -1
        func solve(_ dec: Double) -> Computed {
            Computed(gha: Double(hourAngle), declination: dec, latitude: lat, longitude: 0)
        }
        let atWhole = solve(name * Double(declinationDegrees)), atNext = solve(name * Double(declinationDegrees + 1))
        func rounded(_ minutes: Double, _ step: Double) -> Double { (minutes / step).rounded() * step }
        tabulatedHc = rounded(atWhole.altitude * 60, tables.minuteStep) / 60
        // d is the difference of the printed Hc at this and the next degree of declination.
        d = rounded(rounded(atNext.altitude * 60, tables.minuteStep) - rounded(atWhole.altitude * 60, tables.minuteStep), tables.minuteStep)
        let zWhole = Self.azimuthAngle(atWhole.azimuth)
        tabulatedZ = rounded(zWhole, tables.azimuthStep)
        dCorrection = rounded(d * declinationIncrement / 60, 0.1)
        let tableHc = tabulatedHc + dCorrection / 60
        hc = tableHc
        exactHc = solve(name * decMagnitude).altitude
        zn = Self.trueAzimuth(z: tabulatedZ, northLatitude: north, lha: hourAngle)
        exactZn = Self.trueAzimuth(z: Self.azimuthAngle(solve(name * decMagnitude).azimuth), northLatitude: north, lha: hourAngle)
        intercept = (ho - tableHc) * 60
    }

    /// The azimuth angle Z (0–180°, from the north, east or west) of a true azimuth seen
    /// from a northern latitude.
    static func azimuthAngle(_ zn: Double) -> Double { zn <= 180 ? zn : 360 - zn }

    /// Zn from Z by the tables' rules: north latitude, LHA over 180° Zn = Z, else 360° − Z;
    /// south latitude, LHA over 180° Zn = 180° − Z, else 180° + Z.
    public static func trueAzimuth(z: Double, northLatitude: Bool, lha: Int) -> Double {
        let east = lha > 180
        let zn = northLatitude ? (east ? z : 360 - z) : (east ? 180 - z : 180 + z)
        return normalized(zn)
    }
}
