import Foundation

/// Nutation (IAU 1980), the obliquity of the ecliptic and sidereal time.
///
/// Nutation keeps the 33 largest terms of the IAU 1980 series as Meeus (Table 22.A) and
/// Reda & Andreas (NREL/TP-560-34302, Table A4.3) print it; the 30 left out add up to
/// less than 0.02″. The mean obliquity is Laskar's (Meeus 22.3) and the mean sidereal
/// time is Meeus 12.4.
enum EarthOrientation {
    /// Multiples of D, M, M′, F, Ω; then Δψ = (a + b T) sin, Δε = (c + d T) cos, in 0.0001″.
    static let terms: [(d: Double, m: Double, mm: Double, f: Double, om: Double, a: Double, b: Double, c: Double, dd: Double)] = [
        (0, 0, 0, 0, 1, -171996, -174.2, 92025, 8.9), (-2, 0, 0, 2, 2, -13187, -1.6, 5736, -3.1),
        (0, 0, 0, 2, 2, -2274, -0.2, 977, -0.5), (0, 0, 0, 0, 2, 2062, 0.2, -895, 0.5),
        (0, 1, 0, 0, 0, 1426, -3.4, 54, -0.1), (0, 0, 1, 0, 0, 712, 0.1, -7, 0),
        (-2, 1, 0, 2, 2, -517, 1.2, 224, -0.6), (0, 0, 0, 2, 1, -386, -0.4, 200, 0),
        (0, 0, 1, 2, 2, -301, 0, 129, -0.1), (-2, -1, 0, 2, 2, 217, -0.5, -95, 0.3),
        (-2, 0, 1, 0, 0, -158, 0, 0, 0), (-2, 0, 0, 2, 1, 129, 0.1, -70, 0),
        (0, 0, -1, 2, 2, 123, 0, -53, 0), (2, 0, 0, 0, 0, 63, 0, 0, 0),
        (0, 0, 1, 0, 1, 63, 0.1, -33, 0), (2, 0, -1, 2, 2, -59, 0, 26, 0),
        (0, 0, -1, 0, 1, -58, -0.1, 32, 0), (0, 0, 1, 2, 1, -51, 0, 27, 0),
        (-2, 0, 2, 0, 0, 48, 0, 0, 0), (0, 0, -2, 2, 1, 46, 0, -24, 0),
        (2, 0, 0, 2, 2, -38, 0, 16, 0), (0, 0, 2, 2, 2, -31, 0, 13, 0),
        (0, 0, 2, 0, 0, 29, 0, 0, 0), (-2, 0, 1, 2, 2, 29, 0, -12, 0),
        (0, 0, 0, 2, 0, 26, 0, 0, 0), (-2, 0, 0, 2, 0, -22, 0, 0, 0),
        (0, 0, -1, 2, 1, 21, 0, -10, 0), (0, 2, 0, 0, 0, 17, -0.1, 0, 0),
        (2, 0, -1, 0, 1, 16, 0, -8, 0), (-2, 2, 0, 2, 2, -16, 0.1, 7, 0),
        (0, 1, 0, 0, 1, -15, 0, 9, 0), (-2, 0, 1, 0, 1, -13, 0, 7, 0),
        (0, -1, 0, 0, 1, -12, 0, 6, 0),
    ]

    /// Nutation in longitude and the true obliquity (degrees) at one instant, computed
    /// once for everything placed at it.
    struct Frame {
        var nutationInLongitude: Double
        var obliquity: Double

        init(_ t: Double) {
            let n = EarthOrientation.nutation(t)
            nutationInLongitude = n.longitude
            obliquity = EarthOrientation.meanObliquity(t) + n.obliquity
        }
    }

    /// Nutation in longitude and in obliquity, degrees, at `t` Julian centuries of TT.
    static func nutation(_ t: Double) -> (longitude: Double, obliquity: Double) {
        let d = radians(297.85036 + 445267.111480 * t - 0.0019142 * t * t + t * t * t / 189474)
        let m = radians(357.52772 + 35999.050340 * t - 0.0001603 * t * t - t * t * t / 300000)
        let mm = radians(134.96298 + 477198.867398 * t + 0.0086972 * t * t + t * t * t / 56250)
        let f = radians(93.27191 + 483202.017538 * t - 0.0036825 * t * t + t * t * t / 327270)
        let om = radians(125.04452 - 1934.136261 * t + 0.0020708 * t * t + t * t * t / 450000)
        var psi = 0.0, eps = 0.0
        for k in terms {
            let arg = k.d * d + k.m * m + k.mm * mm + k.f * f + k.om * om
            psi += (k.a + k.b * t) * sin(arg)
            eps += (k.c + k.dd * t) * cos(arg)
        }
        return (psi / 36_000_000, eps / 36_000_000)
    }

    /// The mean obliquity of the ecliptic, degrees.
    static func meanObliquity(_ t: Double) -> Double {
        let u = t / 100
        let coefficients = [84381.448, -4680.93, -1.55, 1999.25, -51.38, -249.67, -39.05, 7.12, 27.87, 5.79, 2.45]
        return coefficients.reversed().reduce(0) { $0 * u + $1 } / 3600
    }

    /// Greenwich mean sidereal time, degrees, at a UT1 Julian date.
    static func meanSiderealTime(ut1 jd: Double) -> Double {
        let t = (jd - 2_451_545) / 36_525
        return normalized(280.46061837 + 360.98564736629 * (jd - 2_451_545) + 0.000387933 * t * t - t * t * t / 38_710_000)
    }
}

func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

/// An angle in degrees, in [0, 360).
func normalized(_ angle: Double) -> Double {
    let a = angle.truncatingRemainder(dividingBy: 360)
    return a < 0 ? a + 360 : a
}
