import MarkTimeCore
import Testing

@Suite("Positions in degrees and decimal minutes")
struct PositionTests {
    @Test func southAndEastFormatAsNavigatorsWriteThem() throws {
        // Given a position near Brisbane
        let p = try Position(latitude: -(27 + 22.84 / 60), longitude: 153 + 22.84 / 60)
        // Then it reads in DDM with hemispheres
        #expect(p.ddm == "27° 22'.84 S  153° 22'.84 E")
    }

    @Test func northAndWestFormat() throws {
        let p = try Position(latitude: 50 + 5.5 / 60, longitude: -(4 + 0.07 / 60))
        #expect(p.ddm == "50° 05'.50 N  4° 00'.07 W")
    }

    @Test func zeroIsNorthAndEast() throws {
        #expect(try Position(latitude: 0, longitude: 0).ddm == "0° 00'.00 N  0° 00'.00 E")
    }

    @Test func aHairSouthOfTheEquatorThatRoundsToZeroIsNorth() throws {
        #expect(try Position(latitude: -0.00001, longitude: -0.00001).ddm == "0° 00'.00 N  0° 00'.00 E")
    }

    @Test func oneEightyEastAndWest() throws {
        #expect(try Position(latitude: 0, longitude: 180).longitudeDDM == "180° 00'.00 E")
        #expect(try Position(latitude: 0, longitude: -180).longitudeDDM == "180° 00'.00 W")
    }

    @Test func minutesThatRoundToSixtyCarryIntoTheDegree() throws {
        // Given 27° 59'.9994 N, which rounds to 60'.00
        let p = try Position(latitude: 27 + 59.9994 / 60, longitude: -(152 + 59.996 / 60))
        // Then the minute carries into the next degree
        #expect(p.ddm == "28° 00'.00 N  153° 00'.00 W")
    }

    @Test(arguments: [
        "27 22.84 S 153 22.84 E",
        "27° 22'.84 S 153° 22'.84 E",
        "27°22.84'S, 153°22.84'E",
        "S 27 22.84 E 153 22.84",
        "153 22.84 E 27 22.84 S",
        "27 22 50.4 S 153 22 50.4 E",
    ])
    func everyWrittenFormReadsTheSame(text: String) throws {
        let p = try Position.parse(text)
        #expect(p.ddm == "27° 22'.84 S  153° 22'.84 E")
    }

    @Test func signedDecimalDegrees() throws {
        let p = try Position.parse("-27.3807, 153.3807")
        #expect(p.latitude == -27.3807)
        #expect(p.longitude == 153.3807)
    }

    @Test func ddmRoundTrips() throws {
        // Given a position's DDM text
        let text = "9° 03'.07 N  79° 54'.99 W"
        // When it is read back
        let p = try Position.parse(text)
        // Then it formats to the same text and the exact value
        #expect(p.ddm == text)
        #expect(p.latitude == 9 + 3.07 / 60)
        #expect(p.longitude == -(79 + 54.99 / 60))
    }

    @Test func latitudeOverNinetyIsRefused() {
        #expect(throws: InputError("latitude 91° is out of range: it must be between 90° S and 90° N")) {
            try Position.parse("91 00.0 N 10 00.0 E")
        }
    }

    @Test func longitudeOverOneEightyIsRefused() {
        #expect(throws: InputError("longitude -180.5° is out of range: it must be between 180° W and 180° E")) {
            try Position.parse("10.0 -180.5")
        }
    }

    @Test func minutesOfSixtyAreRefused() {
        #expect(throws: InputError("cannot read position '27 60.0 S 153 0 E': minutes and seconds must be under 60, not 60")) {
            try Position.parse("27 60.0 S 153 0 E")
        }
    }

    @Test func twoLatitudesAreRefused() {
        #expect(throws: InputError("cannot read position '27 0 S 15 0 N': it needs one of N/S and one of E/W")) {
            try Position.parse("27 0 S 15 0 N")
        }
    }

    @Test func aSignWithAHemisphereIsRefused() {
        #expect(throws: InputError("cannot read position '-27 0 S 15 0 E': use either a sign or a hemisphere letter, not both")) {
            try Position.parse("-27 0 S 15 0 E")
        }
    }

    @Test func lettersAreRefused() {
        #expect(throws: InputError("cannot read position 'here': unexpected 'h'; write it as `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or signed decimal degrees `-27.3807 153.3807`")) {
            try Position.parse("here")
        }
    }
}

@Suite("Sextant altitudes")
struct SextantAngleTests {
    @Test(arguments: ["34 12.3", "34°12'.3", "34° 12.3'", "34°12.3"])
    func degreesAndMinutes(text: String) throws {
        #expect(try SextantAngle.parse(text) == 34 + 12.3 / 60)
    }

    @Test func decimalDegrees() throws {
        #expect(try SextantAngle.parse("34.205") == 34.205)
    }

    @Test func formatsToTheTenthOfAMinute() {
        #expect(SextantAngle.format(34 + 12.3 / 60) == "34° 12'.3")
        #expect(SextantAngle.format(7 + 5.0 / 60) == "7° 05'.0")
    }

    @Test func minutesThatRoundToSixtyCarry() {
        #expect(SextantAngle.format(29 + 59.97 / 60) == "30° 00'.0")
    }

    @Test func aFractionalDegreeWithMinutesIsRefused() {
        #expect(throws: InputError("cannot read Hs '34.5 12': only the last part may have a decimal fraction, as in 27 22.84")) {
            try SextantAngle.parse("34.5 12")
        }
    }

    @Test func aHemisphereIsRefused() {
        #expect(throws: InputError("cannot read Hs '34 12 N': an altitude has no N/S/E/W; write it as `34 12.3` (degrees, minutes), `34°12'.3` or `34.205`")) {
            try SextantAngle.parse("34 12 N")
        }
    }

    @Test func overOneEightyIsRefused() {
        #expect(throws: InputError("Hs 181° is out of range: it must be between 0° and 180°")) {
            try SextantAngle.parse("181")
        }
    }
}
