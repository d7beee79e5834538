import MarkTimeCore
import MarkTimeSky
import Testing

/// Published lunars, each taken at a known time. Their distances are given to 0.1' (±0.05',
/// 6 to 10 s of time at these rates), and each publisher's refraction and almanac are their
/// own: marktime's answers are pinned to 0.1 s, and the published time must lie within the
/// uncertainty marktime states.
@Suite("Lunar distances: the time from the Moon")
struct LunarTests {
    static func time(_ text: String) -> UTCTime { try! UTCTime.read(text, what: "test").time }
    /// George Huxtable's lunar (NavList, "Luni-Solar Distance", October 2010; Paul Hirose's
    /// program confirms it, growing 0.31' a minute): from 0° N 0° E at 2005-03-26 00:00 UTC,
    /// the Moon's near limb to Regulus 36° 48'.9.
    static let regulus = LunarObservation(body: Body(named: "Regulus")!, limb: .near, distance: 36 + 48.9 / 60,
                                          watch: time("2005-03-26T00:00:00Z"), position: try! Position(latitude: 0, longitude: 0))
    /// Paul Hirose's lunar (NavList, "A Lunar Example: Sun and Moon vertically aligned",
    /// December 2017, checked with JPL Horizons): from 5.71132° S 154.93815° E at 2017-10-24
    /// 00:00 UTC, 15 °C and 1013 hPa, near limbs 47° 43'.8; Moon UL 20° 17', Sun LL 68° 01'.
    static let hirose = LunarObservation(body: .sun, limb: .near, distance: 47 + 43.8 / 60, watch: time("2017-10-24T00:00:00Z"),
                                         position: try! Position(latitude: -5.71132, longitude: 154.93815), celsius: 15, hectopascals: 1013)
    /// Ed's first Moon-star lunar (NavList, "First Moon-Star Lunar", December 2017, in Antoine
    /// Couëtte's reworking: no dip, no index error, 10 °C, 29.92"): from 28° 41'.2 N 82° 18'.3 W at
    /// 2017-12-24 00:05:54 UTC by a right clock, the Moon's far limb to Aldebaran 95° 53'.8; Moon
    /// LL 36° 52'.3, Aldebaran 36° 12'.0. Sean C cleared it to 95° 04'.8 and found 00:05:50.6.
    static let aldebaran = LunarObservation(
        body: Body(named: "Aldebaran")!, limb: .far, distance: 95 + 53.8 / 60, watch: time("2017-12-24T00:05:54Z"),
        position: try! Position(latitude: 28 + 41.2 / 60, longitude: -(82 + 18.3 / 60)), hectopascals: 1013.25,
        moonAltitude: .init(hs: 36 + 52.3 / 60, limb: .lower), bodyAltitude: .init(hs: 36 + 12.0 / 60, limb: .center))

    static func tenths(_ x: Double) -> Double { (x * 10).rounded() / 10 }

    @Test func huxtablesRegulusLunarGivesItsTime() throws {
        // Given Huxtable's lunar, altitudes computed from the DR
        // When it is solved
        let s = try LunarSolution(Self.regulus)
        // Then UT is 15.2 s after the published time, within the 40.6 s stated
        #expect(Self.tenths(s.error) == 15.2)
        #expect(Self.tenths(s.uncertainty) == 40.6)
        #expect(abs(s.error) < s.uncertainty)
        // And the distance grows 0.30' a minute (Hirose: 0.31')
        #expect((s.rate * 100).rounded() == 30)
    }

    @Test func hirosesVerticalSunLunarGivesItsTimeWithAltitudesComputedOrMeasured() throws {
        // Given Hirose's lunar, the Sun straight above the Moon
        // When it is solved with the altitudes computed from the DR
        let computed = try LunarSolution(Self.hirose)
        // Then UT is 12.8 s after the published time, within the 30.5 s stated
        #expect(Self.tenths(computed.error) == 12.8)
        #expect(Self.tenths(computed.uncertainty) == 30.5)
        // When it is solved with his measured altitudes instead
        var measured = Self.hirose
        measured.moonAltitude = .init(hs: 20 + 17.0 / 60, limb: .upper)
        measured.bodyAltitude = .init(hs: 68 + 1.0 / 60, limb: .lower)
        let m = try LunarSolution(measured)
        // Then UT is 11.0 s after, within the 27.6 s stated
        #expect(Self.tenths(m.error) == 11.0)
        #expect(Self.tenths(m.uncertainty) == 27.6)
        #expect(m.moonAltitudeMeasured && m.bodyAltitudeMeasured && !computed.moonAltitudeMeasured)
    }

    @Test func anObservedStarLunarClearsAsPublished() throws {
        // Given Ed's Aldebaran lunar with its measured altitudes
        // When it is solved
        let s = try LunarSolution(Self.aldebaran)
        // Then it clears to Sean C's 95° 04'.8, and UT is 11.2 s before the clock's time, within the 24.2 s stated
        #expect(SextantAngle.format(s.cleared) == "95° 04'.8")
        #expect(Self.tenths(s.error) == -11.2)
        #expect(Self.tenths(s.uncertainty) == 24.2)
        // And the distance closes 0.51' a minute
        #expect((s.rate * 100).rounded() == -51)
    }

    @Test func aWatchHalfAnHourFastGivesTheSameUT() throws {
        // Given Ed's lunar with a watch 30 min fast
        var fast = Self.aldebaran
        fast.watch = Self.time("2017-12-24T00:35:54Z")
        // When both are solved
        let right = try LunarSolution(Self.aldebaran), wrong = try LunarSolution(fast)
        // Then the same UT, the watch's error 30 min more
        #expect(abs(wrong.utc.secondsSinceEpoch - right.utc.secondsSinceEpoch) < 0.01)
        #expect(Self.tenths(wrong.error) == -1811.2)
    }

    @Test func aWiderUncertaintyIsStatedForARougherDistance() throws {
        // Given Ed's lunar, its distance said good to 0.5' instead of 0.2'
        var rough = Self.aldebaran
        rough.distanceError = 0.5
        // When solved
        let s = try LunarSolution(rough)
        // Then the same UT, with (0.5² + 0.05²)^½ / 0.511' a minute: 59.0 s
        #expect(Self.tenths(s.error) == -11.2)
        #expect(Self.tenths(s.uncertainty) == 59.0)
    }

    @Test func theMoonIsNoLunarsOtherBody() {
        var moon = Self.regulus
        moon.body = .moon
        #expect(throws: LunarSolution.Failure.bodyIsTheMoon) { try LunarSolution(moon) }
    }

    @Test func aStarFarFromTheMoonsPathIsRefusedForItsSlowDistance() {
        // Given Ed's lunar taken to Eltanin (altitudes computed), whose distance from the Moon barely changes as seen that night
        var eltanin = Self.aldebaran
        eltanin.body = Body(named: "Eltanin")!
        (eltanin.moonAltitude, eltanin.bodyAltitude) = (nil, nil)
        // When solved: refused, naming the rate
        #expect(throws: LunarSolution.Failure.self) { try LunarSolution(eltanin) }
        do { _ = try LunarSolution(eltanin) } catch {
            #expect(error.description == "the distance from the Moon to Eltanin changes only 0.01' a minute of time, too slowly to give the time: "
                + "take a lunar with the Sun, a planet or a star nearer the Moon's path")
        }
    }

    @Test func aDistanceTheMoonNeverReachesIsRefused() {
        // Given Ed's lunar with a distance of 170°
        var far = Self.aldebaran
        far.distance = 170
        // When solved: refused
        #expect(throws: LunarSolution.Failure.noSolution("Aldebaran")) { try LunarSolution(far) }
    }

    @Test func aDROnTheWrongSideOfTheEarthIsRefused() {
        // Given Huxtable's lunar with a DR where the Moon has set
        var wrong = Self.regulus
        wrong.position = try! Position(latitude: 0, longitude: 180)
        // When solved: refused, naming the Moon's altitude there
        do {
            _ = try LunarSolution(wrong)
            Issue.record("solved from below the horizon")
        } catch {
            guard case .belowHorizon(let name, let altitude) = error else { Issue.record("\(error)"); return }
            #expect(name == "the Moon")
            #expect(altitude < -88)
        }
    }

    @Test func aDateOutsideTheAlmanacIsRefused() {
        var old = Self.regulus
        old.watch = Self.time("1960-03-26T00:00:00Z")
        #expect(throws: LunarSolution.Failure.outsideAlmanac(Self.time("1960-03-26T00:00:00Z"))) { try LunarSolution(old) }
    }
}
