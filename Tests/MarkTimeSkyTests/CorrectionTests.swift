import Foundation
import MarkTimeCore
import Testing
@testable import MarkTimeSky

@Suite("Altitude corrections")
struct CorrectionTests {
    @Test func indexErrorIsTheSignedCorrection() {
        // Given 2.5′ on the arc (stored as -2.5) and 1.2′ off the arc (stored as +1.2)
        // Then the first is subtracted and the second added
        #expect(AltitudeCorrection.index(-2.5) == -2.5)
        #expect(AltitudeCorrection.index(1.2) == 1.2)
    }

    @Test func dipForTenMetresIs1Point76RootTen() {
        // 1.76 × √10 = 5.56561′; the Nautical Almanac's dip table prints 5.6′ for 10 m
        #expect(abs(AltitudeCorrection.dip(heightOfEye: 10) - -5.56561) < 1e-5)
    }

    @Test func refractionAtStandardAirFollowsTheAlmanacsFormula() {
        // At Ha 10°: 0.0167° / tan(10° + 7.32 / 14.32) × 60 × 0.28 × 1010 / 283 = 5.39661′
        #expect(abs(AltitudeCorrection.refraction(apparentAltitude: 10) - -5.39661) < 1e-5)
    }

    @Test func coldDenseAirRefractsMore() {
        let standard = AltitudeCorrection.refraction(apparentAltitude: 5)
        let cold = AltitudeCorrection.refraction(apparentAltitude: 5, celsius: -10, hectopascals: 1030)
        // 0.28 × 1030 / 263 over 0.28 × 1010 / 283: 1.09735 times as much
        #expect(abs(cold / standard - 1.09735) < 1e-5)
    }

    @Test func parallaxIsAsinOfSinHPTimesCosineOfAltitude() {
        // asin(sin 57′ × cos 60°) = 28.49902′
        #expect(abs(AltitudeCorrection.parallax(horizontalParallax: 57.0, altitude: 60) - 28.49902) < 1e-5)
    }

    @Test func aFullPlanetNeedsNoPhaseCorrection() {
        #expect(AltitudeCorrection.phase(semiDiameter: 30, phaseAngle: 0, sunFromVertical: 0) == 0)
    }

    @Test func aHalfLitVenusLitFromAboveIsCorrectedDownByFourThirdsOverPiOfItsSemiDiameter() {
        // Given Venus at dichotomy (i = 90°), SD 12″ = 0.2′, the Sun straight above it
        let c = AltitudeCorrection.phase(semiDiameter: 0.2, phaseAngle: 90, sunFromVertical: 0)
        // Then the centre of light is 4/(3π) × 0.2′ = 0.08488′ above the centre: subtract it
        #expect(abs(c - -0.08488) < 1e-5)
        // and lit from the side, the offset is horizontal and needs nothing
        #expect(abs(AltitudeCorrection.phase(semiDiameter: 0.2, phaseAngle: 90, sunFromVertical: 90)) < 1e-12)
    }

    @Test func theLowerLimbAddsTheSemiDiameterAndTheUpperSubtractsIt() {
        #expect(AltitudeCorrection.semiDiameter(16.2, limb: .lower) == 16.2)
        #expect(AltitudeCorrection.semiDiameter(16.2, limb: .upper) == -16.2)
    }

    @Test("On the equator the Moon's correction is the sphere's: no OB, parallax asin(cos h / Δ)")
    func onTheEquatorThereIsNoOblateness() {
        // Given the Moon's centre at 40° (lower limb 39° 44′), 60 Earth radii away, seen from the equator at sea level
        let sd = asin(AltitudeCorrection.moonRadius / 60) // as a first guess; the exact one is topocentric
        let c = AltitudeCorrection.moon(limbAltitude: 40 - degrees(sd), limb: .lower, azimuth: 30, latitude: 0, distance: 60)
        // Then OB is 0, and the centre is at limb + SD, where parallax is asin(cos h / Δ)
        #expect(abs(c.oblateness) < 1e-9)
        let centre = 40 - degrees(sd) + c.semiDiameter / 60
        #expect(abs(c.parallax - degrees(asin(cos(radians(centre)) / 60)) * 60) < 1e-9)
        // And the topocentric semi-diameter is larger than the geocentric one (the Moon is nearer)
        #expect(c.semiDiameter > degrees(sd) * 60)
    }

    @Test("The upper limb subtracts the Moon's semi-diameter; at 50° N, OB is lower for a Moon due south than due north")
    func theUpperLimbAndOB() {
        // Given the Moon 60 radii away, its upper limb at 30°, seen from 50° N, due south and due north
        let south = AltitudeCorrection.moon(limbAltitude: 30, limb: .upper, azimuth: 180, latitude: 50, distance: 60)
        let north = AltitudeCorrection.moon(limbAltitude: 30, limb: .upper, azimuth: 0, latitude: 50, distance: 60)
        // Then SD is subtracted, and OB is lower to the south: the Earth's centre lies north of
        // the plumb line below the observer, so seen from it a Moon in the south is lower
        #expect(south.semiDiameter < -15)
        #expect(south.oblateness < north.oblateness)
    }
}
