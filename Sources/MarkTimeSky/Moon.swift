import Foundation

/// The Moon's geocentric place from the lunar solution ELP 2000-82B (Chapront-Touzé and
/// Chapront; constants fitted to DE200/LE200; CDS catalogue VI/79), the 1,038 terms of at
/// least 0.01″ (0.02 km) in `ELP2000-82B.txt` (written by `Tests/sky/elp-table.py`):
/// within 0.33″ of the whole theory over 1990–2060.
enum MoonTheory {
    static let arcsecond = Double.pi / 648_000

    /// The Moon's mean longitude, its perigee's and its node's; the Earth's mean longitude
    /// and its perihelion's: the notice's polynomials in TDB centuries (″, inertial J2000).
    static let w1 = [785_939.95571, 1_732_559_343.73604, -5.8883, 0.006604, -0.00003169]
    static let w2 = [300_071.67475, 14_643_420.2632, -38.2776, -0.045047, 0.00021301]
    static let w3 = [450_160.39816, -6_967_919.3622, 6.3622, 0.007625, -0.00003586]
    static let earth = [361_679.22059, 129_597_742.2758, -0.0202, 0.000009, 0.00000015]
    static let perihelion = [370_574.42753, 1161.2283, 0.5327, -0.000138, 0]

    /// The series' arguments as polynomials in t (radians): Delaunay's D, l′, l, F; ζ, the
    /// Moon's mean longitude with precession; the mean longitudes of Mercury to Neptune.
    static let arguments: [[Double]] = {
        func minus(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { ($0 - $1) * arcsecond } }
        var d = minus(w1, earth)
        d[0] += .pi
        let planets: [[Double]] = [[908_103.25986, 538_101_628.68898], [655_127.28305, 210_664_136.43355], [earth[0], earth[1]],
                                   [1_279_559.78866, 68_905_077.59284], [123_665.34212, 10_925_660.42861], [180_278.89694, 4_399_609.65932],
                                   [1_130_598.01841, 1_542_481.19393], [1_095_655.19575, 786_550.32074]]
        return [d, minus(earth, perihelion), minus(w1, w2), minus(w1, w3), [w1[0] * arcsecond, (w1[1] + 5029.0966) * arcsecond]]
            + planets.map { $0.map { $0 * arcsecond } }
    }()

    /// Every term as 8 numbers: its argument's polynomial in t (5 coefficients, radians, the
    /// phase included), the amplitude (″ or km), the power of t it is multiplied by, and
    /// the coordinate (0 longitude, 1 latitude, 2 distance).
    static let terms: [Double] = {
        var flat: [Double] = []
        for line in String(decoding: PackageResources.ELP2000_82B_txt, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: " ").map { Double($0)! }
            var polynomial = [radians(f[3]), 0, 0, 0, 0]
            for (m, argument) in zip(f[4...], arguments) where m != 0 {
                for (k, c) in argument.enumerated() { polynomial[k] += m * c }
            }
            flat += polynomial + [f[2], f[1], f[0]]
        }
        return flat
    }()

    /// Longitude (radians, from the inertial equinox of J2000 along the ecliptic of date),
    /// latitude (radians) and distance (km) at `t` Julian centuries of TDB.
    static func spherical(_ t: Double) -> (longitude: Double, latitude: Double, distance: Double) {
        var sums = (0.0, 0.0, 0.0)
        let powers = (1.0, t, t * t)
        terms.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let angle = (((p[i + 4] * t + p[i + 3]) * t + p[i + 2]) * t + p[i + 1]) * t + p[i]
                let power = p[i + 6] == 0 ? powers.0 : p[i + 6] == 1 ? powers.1 : powers.2
                let value = p[i + 5] * power * sin(angle)
                switch p[i + 7] {
                case 0: sums.0 += value
                case 1: sums.1 += value
                default: sums.2 += value
                }
                i += 8
            }
        }
        let mean = w1.reversed().reduce(0) { $0 * t + $1 }
        return ((sums.0 + mean) * arcsecond, sums.1 * arcsecond, sums.2 * 384_747.980_644_895_4 / 384_747.980_674_316_5)
    }

    /// Rectangular coordinates (km) on the mean ecliptic and equinox of J2000 at `t`
    /// Julian centuries of TDB.
    static func j2000(_ t: Double) -> (x: Double, y: Double, z: Double) { j2000(spherical(t), t: t) }

    /// The spherical place `s` at `t` on the mean ecliptic and equinox of J2000, moved
    /// `lightTime` (s) back along the Moon's mean motion.
    static func j2000(_ s: (longitude: Double, latitude: Double, distance: Double), t: Double, lightTime: Double = 0) -> (x: Double, y: Double, z: Double) {
        let longitude = s.longitude - lightTime / 86_400 / 36_525 * w1[1] * arcsecond
        let x1 = s.distance * cos(s.latitude) * cos(longitude), x2 = s.distance * cos(s.latitude) * sin(longitude)
        let x3 = s.distance * sin(s.latitude)
        // Laskar's P and Q: from the ecliptic of date to that of J2000.
        let p = [0.10180391e-4, 0.47020439e-6, -0.5417367e-9, -0.2507948e-11, 0.463486e-14].reversed().reduce(0) { $0 * t + $1 } * t
        let q = [-0.113469002e-3, 0.12372674e-6, 0.1265417e-8, -0.1371808e-11, -0.320334e-14].reversed().reduce(0) { $0 * t + $1 } * t
        let r = 2 * sqrt(1 - p * p - q * q), pq = 2 * p * q, p2 = 1 - 2 * p * p, q2 = 1 - 2 * q * q
        return (p2 * x1 + pq * x2 + p * r * x3, pq * x1 + q2 * x2 - q * r * x3, -p * r * x1 + q * r * x2 + (p2 + q2 - 1) * x3)
    }

    /// The apparent right ascension and declination (degrees, true equator and equinox of
    /// date) and the distance (km) at `t` Julian centuries of TT. The light now arriving
    /// left the Moon about 1.3 s ago: it is placed that much earlier along its mean motion
    /// (within 0.1″ of its true motion), which with the Earth's and the Moon's common
    /// motion is all of its aberration. Then from J2000 as a star: precession (IAU 1976),
    /// the ecliptic of date, nutation.
    static func apparentPlace(centuriesTT t: Double, frame: EarthOrientation.Frame) -> (rightAscension: Double, declination: Double, distance: Double) {
        let place = spherical(t)
        let (x, y, z) = j2000(place, t: t, lightTime: place.distance / 299_792.458)
        let eps0 = radians(84_381.448 / 3600)
        let (xe, ye, ze) = (x, y * cos(eps0) - z * sin(eps0), y * sin(eps0) + z * cos(eps0))
        let (ra, dec) = EarthOrientation.precessed(rightAscension: degrees(atan2(ye, xe)), declination: degrees(atan2(ze, hypot(xe, ye))), t: t)
        let (lambda, beta) = EarthOrientation.ecliptic(rightAscension: ra, declination: dec, t: t)
        let (ra2, dec2) = frame.equatorial(longitude: lambda + frame.nutationInLongitude, latitude: beta)
        return (ra2, dec2, place.distance)
    }
}
