import MarkTimeCore
import MarkTimePlaces
import Testing

let t0 = UTCTime(nanosecondsSinceEpoch: 1_741_946_400_000_000_000)  // 2025-03-14T10:00:00Z

func at(_ lat: Double, _ lon: Double) -> Position { try! Position(latitude: lat, longitude: lon) }

/// A fix `metres` from `center` due `bearing`, `i` seconds after t0.
func fix(_ center: Position, _ metres: Double, bearing: Double = 90, error: Double? = 5, second i: Int) -> GeoFix {
    GeoFix(position: try! GreatCircle.destination(from: center, bearing: bearing, metres: metres), error: error,
           time: UTCTime(nanosecondsSinceEpoch: t0.nanosecondsSinceEpoch + Int64(i) * 1_000_000_000))
}

let homeCenter = at(-27.3807, 153.3807)
let home = try! Place(name: "Home", kind: .home, center: homeCenter, radius: 200)

@Suite("Great-circle distance")
struct GreatCircleTests {
    @Test func oneMinuteOfLatitudeIsAboutANauticalMile() {
        // 1' of arc on a 6371 km sphere is 1853.25 m
        #expect(abs(GreatCircle.distance(at(0, 0), at(1.0 / 60, 0)) - 1853.25) < 0.01)
    }

    @Test func acrossTheAntimeridianIsShort() {
        // Given points 0.02° either side of 180°, then they are 2.22 km apart, not 40 000 km
        #expect(abs(GreatCircle.distance(at(0, 179.99), at(0, -179.99)) - 2223.9) < 0.1)
    }

    @Test func nearThePoleLongitudeMattersLittle() {
        // Given two points at 89.999° N on opposite meridians, they are 222.4 m apart
        #expect(abs(GreatCircle.distance(at(89.999, 0), at(89.999, 180)) - 222.39) < 0.01)
    }

    @Test func bearingDueEastOnTheEquatorIs90() {
        #expect(abs(GreatCircle.bearing(from: at(0, 0), to: at(0, 1)) - 90) < 1e-9)
    }
}

@Suite("The geofence")
struct GeofenceTests {
    @Test func entersAfterThreeFixesInsideAndLeavesAfterThreeOutsideTheMargin() {
        // Given a person outside Home
        var g = Geofence()
        // When three fixes fall inside, then the third enters
        #expect(g.handle(fix(homeCenter, 50, second: 1), places: [home]) == [])
        #expect(g.handle(fix(homeCenter, 50, second: 2), places: [home]) == [])
        let enter = g.handle(fix(homeCenter, 50, second: 3), places: [home])
        #expect(enter.map(\.kind) == [.enter])
        #expect(enter.first?.place == "Home")
        #expect(g.place == "Home")
        #expect(g.since == fix(homeCenter, 50, second: 3).time)
        // When three fixes fall beyond 200 m + 20 m, then the third leaves
        #expect(g.handle(fix(homeCenter, 300, second: 4), places: [home]) == [])
        #expect(g.handle(fix(homeCenter, 300, second: 5), places: [home]) == [])
        #expect(g.handle(fix(homeCenter, 300, second: 6), places: [home]).map(\.kind) == [.leave])
        #expect(g.place == nil)
    }

    @Test func jitterAtTheEdgeDoesNotFlap() {
        // Given a person at Home
        var g = Geofence(place: "Home", since: t0)
        // When fixes wander between 190 m and 215 m (inside radius + 20 m margin) for a minute
        var events: [PlaceEvent] = []
        for i in 0..<60 { events += g.handle(fix(homeCenter, i % 2 == 0 ? 190 : 215, second: i), places: [home]) }
        // Then nothing happens
        #expect(events == [])
        #expect(g.place == "Home")
    }

    @Test func twoOutsideThenOneInsideStartsTheCountAgain() {
        var g = Geofence(place: "Home", since: t0)
        _ = g.handle(fix(homeCenter, 300, second: 1), places: [home])
        _ = g.handle(fix(homeCenter, 300, second: 2), places: [home])
        _ = g.handle(fix(homeCenter, 100, second: 3), places: [home])
        _ = g.handle(fix(homeCenter, 300, second: 4), places: [home])
        #expect(g.handle(fix(homeCenter, 300, second: 5), places: [home]) == [])
        #expect(g.place == "Home")
    }

    @Test func aFixVaguerThanTheRadiusChangesNothing() {
        // Given a person at Home (200 m)
        var g = Geofence(place: "Home", since: t0)
        // When three fixes 5 km away have a 500 m error estimate
        var events: [PlaceEvent] = []
        for i in 1...3 { events += g.handle(fix(homeCenter, 5000, error: 500, second: i), places: [home]) }
        // Then they are ignored
        #expect(events == [])
        #expect(g.place == "Home")
    }

    @Test func overlappingPlacesPickTheNearest() throws {
        // Given a harbour of 2 km around Home's position and a marina 150 m off it
        let harbour = try Place(name: "Harbour", kind: .harbour, center: homeCenter, radius: 2000)
        let marinaCenter = try GreatCircle.destination(from: homeCenter, bearing: 0, metres: 800)
        let marina = try Place(name: "Marina", kind: .anchorage, center: marinaCenter, radius: 150)
        var g = Geofence()
        // When three fixes fall 20 m from the marina's centre (inside both)
        var events: [PlaceEvent] = []
        for i in 1...3 { events += g.handle(fix(marinaCenter, 20, second: i), places: [harbour, marina]) }
        // Then the person is at the marina, the nearer one
        #expect(events.map(\.place) == ["Marina"])
        // When they move 600 m south (inside the harbour only), then they leave the marina for it
        for i in 4...6 { events += g.handle(fix(marinaCenter, 600, bearing: 180, second: i), places: [harbour, marina]) }
        #expect(events.map { "\($0.kind.rawValue) \($0.place)" } == ["enter Marina", "leave Marina", "enter Harbour"])
    }

    @Test func worksAcrossTheAntimeridian() throws {
        // Given a place at 180°, and fixes just west of it (negative longitudes)
        let fiji = try Place(name: "Taveuni", kind: .anchorage, center: at(-16.8, 179.99), radius: 3000)
        var g = Geofence()
        var events: [PlaceEvent] = []
        for i in 1...3 { events += g.handle(GeoFix(position: at(-16.8, -179.99), error: 5, time: t0), places: [fiji]) ; _ = i }
        // Then the 2.1 km across the line is inside
        #expect(events.map(\.place) == ["Taveuni"])
    }

    @Test func worksNearThePole() throws {
        // Given a 500 m place at 89.999° N, 0°, and fixes across the pole at 89.999° N, 180°
        let pole = try Place(name: "Pole camp", kind: .other, center: at(89.999, 0), radius: 500)
        var g = Geofence()
        var events: [PlaceEvent] = []
        for _ in 1...3 { events += g.handle(GeoFix(position: at(89.999, 180), error: 5, time: t0), places: [pole]) }
        // Then 222 m away is inside
        #expect(events.map(\.place) == ["Pole camp"])
    }

    @Test func theMarginIsTenPercentOrTwentyMetres() throws {
        let rules = GeofenceRules()
        #expect(rules.margin(for: home) == 20)
        #expect(rules.margin(for: try Place(name: "Bay", kind: .harbour, center: homeCenter, radius: 1000)) == 100)
    }

    @Test func aRadiusMustBePositiveAndAtMost100km() {
        #expect(throws: InputError.self) { try Place(name: "X", kind: .other, center: homeCenter, radius: 0) }
        #expect(throws: InputError.self) { try Place(name: "X", kind: .other, center: homeCenter, radius: 100_001) }
    }
}

@Suite("The anchor watch")
struct AnchorWatchTests {
    let second: Int64 = 1_000_000_000

    @Test func theSwingRadiusComesFromRodeDepthAndBow() throws {
        // 50 m of rode, 12 m of water, bow 2 m: √(2500 − 196) = 48.0 m, plus a 10 m margin
        #expect(abs(try AnchorWatch.swingRadius(rode: 50, depth: 12, bow: 2, margin: 10) - 58.0) < 0.01)
        #expect(throws: InputError.self) { try AnchorWatch.swingRadius(rode: 10, depth: 12, margin: 10) }
    }

    @Test func threeFixesOutsideRaiseTheAlarmOnce() {
        // Given a 60 m watch
        var w = AnchorWatch(anchor: homeCenter, radius: 60, droppedAt: 0)
        // When the boat swings to 40 m, then drags to 80 m for three fixes
        #expect(w.handle(fix(homeCenter, 40, second: 1), now: 1 * second) == [])
        #expect(w.handle(fix(homeCenter, 80, second: 2), now: 2 * second) == [])
        #expect(w.handle(fix(homeCenter, 80, second: 3), now: 3 * second) == [])
        #expect(w.handle(fix(homeCenter, 80, second: 4), now: 4 * second) == [.soundAlarm])
        // Then it stays in alarm without sounding again
        #expect(w.handle(fix(homeCenter, 90, second: 5), now: 5 * second) == [])
        #expect(w.state == .alarm)
        #expect(abs((w.distance ?? 0) - 90) < 0.01)
        #expect(abs((w.bearing ?? 0) - 90) < 0.01)
    }

    @Test func acknowledgingSilencesAndReArms() {
        var w = AnchorWatch(anchor: homeCenter, radius: 60, droppedAt: 0, state: .alarm, outside: 3)
        #expect(w.acknowledge() == [.silenceAlarm])
        #expect(w.state == .watching)
        // Re-armed: three more fixes outside sound it again
        for i in 1...2 { #expect(w.handle(fix(homeCenter, 80, second: i), now: Int64(i) * second) == []) }
        #expect(w.handle(fix(homeCenter, 80, second: 3), now: 3 * second) == [.soundAlarm])
    }

    @Test func noFixForLongerThanTheLimitIsStale() {
        var w = AnchorWatch(anchor: homeCenter, radius: 60, staleAfter: 30, droppedAt: 0)
        #expect(w.tick(now: 30 * second) == [])
        #expect(w.tick(now: 31 * second) == [.warnStale])
        #expect(w.state == .stale)
        #expect(w.tick(now: 40 * second) == [])
        // A fix brings it back to watching
        _ = w.handle(fix(homeCenter, 10, second: 41), now: 41 * second)
        #expect(w.state == .watching)
    }

    @Test func liftingEndsTheWatchAndSilencesAnAlarm() {
        var w = AnchorWatch(anchor: homeCenter, radius: 60, droppedAt: 0, state: .alarm)
        #expect(w.lift() == [.silenceAlarm])
        #expect(w.state == .off)
        #expect(w.handle(fix(homeCenter, 500, second: 1), now: second) == [])
    }
}
