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

    @Test func theMoonOverheadLooksLargerByItsParallax() {
        // At Ha 90° the factor is 1 + sin(57′) = 1.016580…: SD 15.5′ becomes 15.75699′
        let sd = AltitudeCorrection.augmented(semiDiameter: 15.5, horizontalParallax: 57, apparentAltitude: 90)
        #expect(abs(sd - 15.75699) < 1e-5)
        // and on the horizon it is the geocentric one
        #expect(AltitudeCorrection.augmented(semiDiameter: 15.5, horizontalParallax: 57, apparentAltitude: 0) == 15.5)
    }
}
