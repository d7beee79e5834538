import Testing
@testable import MarkTimeSky

@Suite("Hc, Zn and the intercept")
struct ReductionTests {
    @Test func aBodyOverheadIsAtNinetyDegrees() {
        let c = Computed(gha: 30, declination: 20, latitude: 20, longitude: -30)
        #expect(abs(c.altitude - 90) < 1e-9)
    }

    @Test func anEquatorialBodySixHoursWestIsSettingDueWest() {
        // Given latitude 45° N and a body on the equator with LHA 90°
        let c = Computed(gha: 100, declination: 0, latitude: 45, longitude: -10)
        // Then it is on the horizon, bearing 270°
        #expect(abs(c.altitude) < 1e-9)
        #expect(abs(c.azimuth - 270) < 1e-9)
    }

    @Test func aBodyOnTheMeridianSouthOfTheObserverBearsSouth() {
        // Given latitude 50° N and a body at declination 10° N on the meridian
        let c = Computed(gha: 5, declination: 10, latitude: 50, longitude: -5)
        // Then Hc = 90 − 50 + 10 = 50° and Zn = 180°
        #expect(abs(c.altitude - 50) < 1e-9)
        #expect(abs(c.azimuth - 180) < 1e-9)
    }

    @Test func anObservedAltitudeAboveHcIsTowardTheBody() {
        let c = Computed(gha: 5, declination: 10, latitude: 50, longitude: -5)
        #expect(abs(c.intercept(observed: 50 + 2.5 / 60) - 2.5) < 1e-9)
        #expect(abs(c.intercept(observed: 50 - 1.0 / 60) - -1.0) < 1e-9)
    }
}
