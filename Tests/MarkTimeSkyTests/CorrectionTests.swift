import Testing
@testable import MarkTimeSky

@Suite("Altitude corrections")
struct CorrectionTests {
    @Test func indexErrorOnTheArcIsSubtracted() {
        #expect(AltitudeCorrection.index(2.5) == -2.5)
        #expect(AltitudeCorrection.index(-1.2) == 1.2)
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

    @Test func parallaxIsHPTimesCosineOfAltitude() {
        #expect(abs(AltitudeCorrection.parallax(horizontalParallax: 57.0, apparentAltitude: 60) - 28.5) < 1e-9)
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
