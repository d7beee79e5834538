import MarkTimeCore
import Testing

/// A fix at `lat`, `lon` received at `t` seconds of boot "boot-a", ±5 m.
func fixAt(_ lat: Double, _ lon: Double = 153.3807, t: Double, error: Double? = 5) -> Fix {
    Fix(position: try! Position(latitude: lat, longitude: lon), mode: 3, horizontalError: error, time: nil,
        receivedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: Int64(t * 1e9)))
}

/// A GPS position that moves faster than the boat can is flagged (#58 item 6).
@Suite("A GPS position faster than the boat is flagged")
struct PositionCheckTests {
    @Test func fiftyMilesInASecondIsFlaggedInWords() throws {
        // Given a trusted fix at 27° 22'.84 S
        var check = PositionCheck(maxKnots: 30)
        #expect(check.check(fixAt(-27.3807, t: 100)) == nil)
        // When the next, a second later, is 50' of latitude north
        let found = check.check(fixAt(-27.3807 + 50.0 / 60, t: 101))
        let jump = try #require(found)
        // Then it is a jump of 50.0 nm, said in words, and the trusted fix stays the first
        #expect(abs(jump.nauticalMiles - 50) < 1e-6)
        #expect(jump.sentence == "gps position moved 50.0 nm in 1 s (180000 kn) from the last trusted fix (27° 22'.84 S  153° 22'.84 E), "
            + "faster than the boat can (gps.max_speed_kn 30): it is flagged, and a sight keeps it only with that flag, "
            + "until a fix within reach or `marktime clock trust-gps`")
        #expect(check.lastTrusted == fixAt(-27.3807, t: 100))
    }

    @Test func aBoatAt25KnotsIsNeverFlagged() {
        // Given fixes once a second for 10 minutes at 25 kn north, each 4 m off its true place
        var check = PositionCheck(maxKnots: 30)
        let flagged = (0..<600).filter { i in
            let noise = (i % 2 == 0 ? 4.0 : -4.0) / 1852 / 60
            return check.check(fixAt(-27.3807 + Double(i) * 25 / 3600 / 60 + noise, t: 100 + Double(i))) != nil
        }
        // Then none is flagged
        #expect(flagged.isEmpty)
    }

    @Test func aFixBackWithinReachCountsAgain() {
        // Given a trusted fix, then one 50 nm off
        var check = PositionCheck(maxKnots: 30)
        _ = check.check(fixAt(-27.3807, t: 100))
        #expect(check.check(fixAt(-26.5473, t: 101)) != nil)
        // When the next is back beside the first
        // Then it is trusted
        #expect(check.check(fixAt(-27.3806, t: 102)) == nil)
        #expect(check.lastTrusted?.position.latitude == -27.3806)
    }

    @Test func theReachGrowsWithTheTimeSinceTheLastTrustedFix() {
        // Given a trusted fix, and a position 50 nm north: 100 minutes at 30 kn
        var check = PositionCheck(maxKnots: 30)
        _ = check.check(fixAt(-27.3807, t: 0, error: 0))
        let north = -27.3807 + 50.0 / 60
        // Then it is flagged 99 minutes later, and trusted at 101
        #expect(check.check(fixAt(north, t: 99 * 60, error: 0)) != nil)
        #expect(check.check(fixAt(north, t: 101 * 60, error: 0)) == nil)
    }

    @Test func aFixOfAnotherBootStartsAgain() {
        // Given a trusted fix in another boot
        var check = PositionCheck(maxKnots: 30)
        _ = check.check(Fix(position: try! Position(latitude: 10, longitude: 10), mode: 3, horizontalError: 5, time: nil,
                            receivedAt: MonotonicInstant(bootID: "boot-z", nanoseconds: 5)))
        // Then this boot's first fix, however far, is trusted
        #expect(check.check(fixAt(-27.3807, t: 1)) == nil)
    }

    @Test func theDaemonFlagsTheFixSaysItOnceAndTheSightKeepsTheFlag() throws {
        // Given a daemon core with a trusted fix at 10 s, handed to the watch
        var core = startedCore()
        _ = core.handle(.tick(now: 10 * second + 500_000_000, clock: nil))
        // When two fixes 50 nm north come at 11 s and 12 s
        let first = core.handle(.fix(fixAt(-26.5473, t: 11)))
        let again = core.handle(.fix(fixAt(-26.5473, t: 12)))
        // Then the first is said in the log, the second not again
        #expect(first.messages.count == 1)
        #expect(first.messages.first?.hasPrefix("gps position moved 50.0 nm in 1 s (180014 kn) from the last trusted fix (27° 22'.84 S") == true,
                "\(first.messages)")
        #expect(again.messages.isEmpty)
        // And the fix keeps its own flag, from the last trusted fix 2 s before it
        let flag = try #require(core.status(now: 12 * second).fix?.flag)
        #expect(flag.hasPrefix("gps position moved 50.0 nm in 2 s (90007 kn)"))
        // And a sight then keeps the position with the flag
        let sight = try #require(core.handle(.input(keyDown(12 * second + 100_000_000), clock: nil)).inserts.first)
        #expect(sight.position?.latitude == -26.5473)
        #expect(sight.positionFlag == flag)
        #expect(sight.positionSummary == "26° 32'.84 S  153° 22'.84 E (flagged: faster than the boat can)")
        // And the anchor watch and the geofence are not given it
        #expect(core.handle(.tick(now: 13 * second, clock: nil)).contains(.watch([], now: 13 * second)))
    }

    @Test func theNavigatorAcceptsTheFlaggedPosition() {
        // Given a flagged fix
        var core = startedCore()
        _ = core.handle(.fix(fixAt(-26.5473, t: 11)))
        // When `marktime clock trust-gps` rings
        let said = core.handle(.doorbell(.trustGPS, from: nil, now: 11 * second))
        // Then the flag is gone, the log says so, and the next fix nearby is trusted
        #expect(said.messages == ["gps position accepted by the navigator as it is: it counts again"])
        #expect(core.fix?.flag == nil)
        #expect(core.handle(.fix(fixAt(-26.5474, t: 12))).messages.isEmpty)
        #expect(core.fix?.flag == nil)
    }

    @Test func aRestartedDaemonChecksItsFirstFixAgainstTheLastOneTrustedBeforeIt() throws {
        // Given a daemon whose status says its last trusted fix, at 10 s
        let before = startedCore()
        let trusted = try #require(before.status(now: 10 * second).trustedFix)
        #expect(trusted == testFix)
        // When a new daemon starts in the same boot with it, and its first fix is 50 nm north a second later
        var core = DaemonCore(configuration: try .init(settings: settingsWith(debounce: 30), pid: 8, trackSaveInterval: 600))
        _ = core.handle(.started(bootID: "boot-a", now: 10 * second, track: [], pending: []))
        let said = core.handle(.earlierTrustedFix(trusted))
        _ = core.handle(.fix(fixAt(-26.5473, t: 11)))
        // Then the start says it, and the fix is flagged
        #expect(said.messages == ["the last fix trusted before this start (27° 22'.84 S  153° 22'.84 E): the next fix is checked against it"])
        #expect(core.fix?.flag?.hasPrefix("gps position moved 50.0 nm in 1 s") == true, "\(String(describing: core.fix?.flag))")
    }

    @Test func aFixTrustedInAnotherBootIsNotCheckedAgainst() {
        // Given a new daemon after a reboot, told the last trusted fix of the boot before
        var core = DaemonCore(configuration: try! .init(settings: settingsWith(debounce: 30), pid: 8, trackSaveInterval: 600))
        _ = core.handle(.started(bootID: "boot-b", now: second, track: [], pending: []))
        let said = core.handle(.earlierTrustedFix(testFix))
        // When its first fix is 50 nm from it
        var far = fixAt(-26.5473, t: 2)
        far.receivedAt = MonotonicInstant(bootID: "boot-b", nanoseconds: 2 * second)
        _ = core.handle(.fix(far))
        // Then it is taken as it is: monotonic times of two boots cannot be compared
        #expect(said.messages.isEmpty)
        #expect(core.fix?.flag == nil)
    }

    @Test func aFixWithinReachAfterAFlagIsSaidToCountAgain() {
        var core = startedCore()
        _ = core.handle(.fix(fixAt(-26.5473, t: 11)))
        #expect(core.handle(.fix(fixAt(-27.3807, t: 12))).messages == ["gps position within reach of the last trusted fix again: it counts again"])
    }
}

@Suite("A GPS position dragged off a step at a time")
struct PositionDragOffTests {
    @Test func aDragOffAt40KnotsInStepsEachWithinItsErrorsIsFlaggedOnceAMinuteOfItAddsUp() throws {
        // Given fixes once a second, ±10 m, moving north at 40 kn: each step (20.6 m) within
        // 30 kn and the two fixes' errors (35.4 m)
        var check = PositionCheck(maxKnots: 30)
        let step = 40.0 / 3600 / 60
        let flagged = (0..<120).first { i in check.check(fixAt(-27.3807 + Double(i) * step, t: 100 + Double(i), error: 10)) != nil }
        // Then it is flagged when the fix a minute back is further than 30 kn and the errors allow: 60 s in
        #expect(flagged == 60)
    }

    @Test func anErrorAFixClaimsCountsAt100MetresAtMost() {
        // Given a trusted fix, and one 400 m off a second later that claims ±5 km
        var check = PositionCheck(maxKnots: 30)
        _ = check.check(fixAt(-27.3807, t: 100, error: 10))
        // Then it is flagged: its error counts as 100 m
        #expect(check.check(fixAt(-27.3807 + 400.0 / 1852 / 60, t: 101, error: 5000)) != nil)
    }
}
