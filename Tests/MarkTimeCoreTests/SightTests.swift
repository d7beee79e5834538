import MarkTimeCore
import Testing

@Suite("Sights and their edits")
struct SightTests {
    let boot = "boot-a"
    var instant: MonotonicInstant { MonotonicInstant(bootID: boot, nanoseconds: 100 * second) }
    let estimate = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5)

    func fix(mode: Int, at seconds: Int64, boot: String = "boot-a") throws -> Fix {
        Fix(position: try Position(latitude: -27.2107, longitude: 153.052), mode: mode, horizontalError: 8,
            time: nil, receivedAt: MonotonicInstant(bootID: boot, nanoseconds: seconds * second))
    }

    @Test func aFreshFixIsStoredWithItsAge() throws {
        let s = Sight.mark(instant: instant, estimate: estimate, fix: try fix(mode: 3, at: 99), createdAt: estimate.utc)
        #expect(s.position == (try Position(latitude: -27.2107, longitude: 153.052)))
        #expect(s.fixMode == 3)
        #expect(s.fixAge == 1.0)
    }

    @Test func aStaleFixIsNotStored() throws {
        let s = Sight.mark(instant: instant, estimate: estimate, fix: try fix(mode: 3, at: 69), maxFixAge: 30, createdAt: estimate.utc)
        #expect(s.position == nil)
        #expect(s.fixAge == nil)
    }

    @Test func aNoFixModeIsNotStored() throws {
        let s = Sight.mark(instant: instant, estimate: estimate, fix: try fix(mode: 1, at: 99), createdAt: estimate.utc)
        #expect(s.position == nil)
    }

    @Test func aFixFromAnotherBootIsNotStored() throws {
        let s = Sight.mark(instant: instant, estimate: estimate, fix: try fix(mode: 3, at: 99, boot: "boot-b"), createdAt: estimate.utc)
        #expect(s.position == nil)
    }

    @Test func correctingKeepsTheFirstEstimate() {
        var s = Sight(instant: instant, estimate: estimate, createdAt: estimate.utc)
        let pps = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 300_000_000), source: .pps, uncertainty: 0.000_01)
        s.correct(to: pps, at: UTCTime(nanosecondsSinceEpoch: logDay + 60 * second))
        s.correct(to: pps, at: UTCTime(nanosecondsSinceEpoch: logDay + 61 * second))
        #expect(s.estimate == pps)
        #expect(s.original == estimate)
        #expect(s.correctedAt == UTCTime(nanosecondsSinceEpoch: logDay + 61 * second))
    }

    @Test func anEditSetsAndClearsFields() throws {
        // Given a sight with a body and a note
        var s = Sight(instant: instant, estimate: estimate, createdAt: estimate.utc)
        s.body = "Moon"
        s.note = "old"
        // When the edit sets Hs and the limb and clears the note
        var edit = SightEdit()
        edit.hs = .set(34.205)
        edit.limb = .set(.upper)
        try edit.clear("note")
        let edited = edit.apply(to: s, at: UTCTime(nanosecondsSinceEpoch: logDay + second))
        // Then only those change, and the edit time is set
        #expect(edited.body == "Moon")
        #expect(edited.hs == 34.205)
        #expect(edited.limb == .upper)
        #expect(edited.note == nil)
        #expect(edited.editedAt == UTCTime(nanosecondsSinceEpoch: logDay + second))
    }

    @Test func clearingAnUnknownFieldIsRefused() {
        var edit = SightEdit()
        #expect(throws: InputError("cannot clear 'colour': use one of body, limb, hs, ie, eye-height, temp, pressure, dr, note")) {
            try edit.clear("colour")
        }
    }

    @Test(arguments: [("lower", Limb.lower), ("LL", .lower), ("Centre", .center), ("center", .center), ("UL", .upper)])
    func limbs(text: String, limb: Limb) throws {
        #expect(try Limb.parse(text) == limb)
    }

    @Test func anUnknownLimbIsRefused() {
        #expect(throws: InputError("unknown limb 'side': use lower, center or upper")) { try Limb.parse("side") }
    }

    @Test func indexErrorIsSignedArcMinutes() throws {
        #expect(try SightField.indexError("-2.4") == -2.4)
        #expect(try SightField.indexError("+1.5") == 1.5)
    }

    @Test func pressureOutOfRangeIsRefused() {
        #expect(throws: InputError("pressure 500 hPa is out of range: it must be between 850 and 1100 hPa")) {
            try SightField.pressure("500")
        }
    }

    @Test func theToneSaysWhetherTheClockWasSynchronised() {
        #expect(Tone.stored(.gps) == .ok)
        #expect(Tone.stored(.pps) == .ok)
        #expect(Tone.stored(.unsynced) == .warning)
    }
}

@Suite("Config keys")
struct SettingsTests {
    @Test func defaults() throws {
        let s = Settings()
        #expect(try s.button.debounceMilliseconds == 30)
        #expect(try s.button.latencyCompensationMilliseconds == 0)
        #expect(try s.clock.nmeaUncertainty == 0.5)
        #expect(try s.sound.device == "default")
        #expect(try s.button.device == nil)
        #expect(try s.sight.recordPosition)
    }

    @Test func anUnknownKeyListsTheValidOnes() {
        #expect(throws: InputError("unknown config key 'sound.colour': valid keys are \(Settings.keyList)")) {
            try Settings.key(named: "sound.colour")
        }
    }

    @Test func aBadValueSaysWhatTheKeyTakes() throws {
        let key = try Settings.key(named: "button.debounce_ms")
        #expect(throws: InputError("button.debounce_ms takes a whole number from 0 to 1000, not 'soon'")) { try key.parse("soon") }
        #expect(try key.parse("45") == .int(45))
    }

    @Test func booleansReadTheUsualWords() throws {
        let key = try Settings.key(named: "sight.record_position")
        #expect(try key.parse("off") == .bool(false))
        #expect(try key.parse("TRUE") == .bool(true))
    }
}
