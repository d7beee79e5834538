import MarkTimeCore
import Testing

/// The key-downs of `keys` (evdev codes) at 1 ms steps from `at`.
func typed(_ codes: [UInt16], at: Int64 = 20 * second) -> [InputEvent] {
    codes.enumerated().map { InputEvent(type: 1, code: $1, value: 1, nanoseconds: at + Int64($0) * 1_000_000) }
}

/// `3412.3`, Enter, on the number pad.
let keypad3412dot3: [UInt16] = [81, 75, 79, 80, 83, 81, 96]

extension [DaemonCore.Action] {
    var readings: [ReadingRequest] { compactMap { if case .setReading(let r) = $0 { r } else { nil } } }
}

@Suite("The keypad's entry")
struct KeypadEntryTests {
    static let readings: [(String, Double)] = [("3412.3", 34 + 12.3 / 60), ("512", 5 + 12.0 / 60), ("7005", 70 + 5.0 / 60), ("000", 0),
                                               ("9000", 90), ("4459.9", 44 + 59.9 / 60), ("1200.25", 12 + 0.25 / 60)]

    @Test(arguments: readings)
    func aReadingIsDegreesThenTwoDigitsOfMinutes(text: String, degrees: Double) throws {
        // Given the digits typed / When they are read / Then they are that altitude
        #expect(try KeypadEntry.reading(text) == degrees)
    }

    static let refusals: [(String, String)] = [
        ("3490", "'3490' is not an angle: its minutes (90) must be under 60; give degrees then two digits of minutes: 3412.3 is 34° 12′.3, 512 is 5° 12′"),
        ("99", "'99' is not a reading: give degrees then two digits of minutes: 3412.3 is 34° 12′.3, 512 is 5° 12′"),
        ("9100", "'9100' is 91°, above 90°: an altitude is from 0° on the horizon to 90° at the zenith; give degrees then two digits of minutes: 3412.3 is 34° 12′.3, 512 is 5° 12′"),
        ("12.", "'12.' is not a reading: give degrees then two digits of minutes: 3412.3 is 34° 12′.3, 512 is 5° 12′"),
        ("", "Enter with nothing typed: type the reading first, degrees then two digits of minutes: 3412.3 is 34° 12′.3, 512 is 5° 12′"),
    ]

    @Test(arguments: refusals)
    func whatIsNotAnAngleIsRefusedInWords(text: String, sentence: String) {
        // Given digits that are no altitude / When they are read / Then the refusal says why and how
        #expect(throws: InputError(sentence)) { try KeypadEntry.reading(text) }
    }

    @Test(arguments: ["999999999999999999900", "12345.6", "3412.345", "34.12.3", "1e300", "-3412", "３４１２"])
    func whatThePageCouldSendThatNoKeypadTypesIsRefusedNeverATrap(text: String) {
        // Given text the phone's quick entry could send (any string), not 8 keys
        // Then it is refused in words
        #expect(throws: InputError.self) { try KeypadEntry.reading(text) }
    }

    @Test func aVeryLongTextIsShownCutInItsRefusal() {
        #expect(throws: InputError("'99999999999999999999…' is not a reading: give degrees then two digits of minutes: 3412.3 is 34° 12′.3, 512 is 5° 12′")) {
            try KeypadEntry.reading(String(repeating: "9", count: 30))
        }
    }

    @Test func digitsThenEnterAskForTheHsAndClearTheEntry() {
        // Given an empty entry
        var entry = KeypadEntry()
        // When 3412.3 and Enter are typed on the number pad
        let commands = typed(keypad3412dot3).compactMap { entry.handle($0) }
        // Then one command asks for 34° 12'.3, and nothing is left typed
        #expect(commands == [.hs(34 + 12.3 / 60, typed: "3412.3")])
        #expect(entry.typed == "")
    }

    @Test func theTopRowBackspaceAndEscapeEditTheEntry() {
        // Given 5, 1, 9, Backspace, 2 on the top row (then Escape, 4, 4, 0, 0, Enter)
        var entry = KeypadEntry()
        for e in typed([6, 2, 10, 14, 3]) { _ = entry.handle(e) }
        #expect(entry.typed == "512")
        let commands = typed([1, 5, 5, 11, 11, 28]).compactMap { entry.handle($0) }
        // Then Escape threw away 512, and Enter asks for 44° 00'
        #expect(commands == [.hs(44, typed: "4400")])
    }

    @Test func keyUpsAndAutorepeatTypeNothing() {
        var entry = KeypadEntry()
        _ = entry.handle(InputEvent(type: 1, code: 2, value: 0, nanoseconds: 1))
        _ = entry.handle(InputEvent(type: 1, code: 2, value: 2, nanoseconds: 2))
        _ = entry.handle(InputEvent(type: 0, code: 0, value: 0, nanoseconds: 3))
        #expect(entry.typed == "")
    }

    @Test func theBodyKeyAndUndoActAtOnce() {
        var entry = KeypadEntry()
        #expect(entry.handle(typed([78])[0]) == .nextBody)
        _ = entry.handle(typed([2])[0])
        #expect(entry.handle(typed([74])[0]) == .undo)
        // Undo throws away what was typed
        #expect(entry.typed == "")
    }

    @Test func aNinthKeyOrASecondPointClearsTheEntryWithASentence() {
        var entry = KeypadEntry()
        let long = typed([2, 3, 4, 5, 6, 7, 8, 9, 10]).compactMap { entry.handle($0) }
        #expect(long == [.refused("more than 8 keys before Enter is not a reading: the entry is cleared; type it again, degrees then two digits of minutes (3412.3 is 34° 12′.3)")])
        #expect(entry.typed == "")
        let points = typed([5, 83, 2, 83]).compactMap { entry.handle($0) }
        #expect(points == [.refused("a reading has one decimal point: the entry is cleared; type it again (3412.3 is 34° 12′.3)")])
        #expect(entry.typed == "")
    }
}

@Suite("The daemon core and the keypad")
struct DaemonCoreKeypadTests {
    func storedSight(_ core: inout DaemonCore, id: Int64) {
        var sight = core.handle(.input(keyDown(10 * second + id * 100_000_000), clock: nil)).inserts[0]
        sight.id = id
        _ = core.handle(.stored(sight, timing: nil))
    }

    @Test func anEntryAsksToSetTheLastStoredSightsHs() {
        // Given sights 4 and 5 stored
        var core = startedCore()
        storedSight(&core, id: 4)
        storedSight(&core, id: 5)
        // When 3412.3 Enter is typed
        let actions = typed(keypad3412dot3).flatMap { core.handle(.keypad($0)) }
        // Then it asks the writer to set sight 5's Hs, and nothing else yet (no tone before it is kept)
        #expect(actions == [.setReading(ReadingRequest(sightID: 5, change: .hs(34 + 12.3 / 60)))])
    }

    @Test func beforeAnySightThisRunTheRequestNamesNone() {
        var core = startedCore()
        let actions = typed([78]).flatMap { core.handle(.keypad($0)) }
        #expect(actions.readings == [ReadingRequest(sightID: nil, change: .nextBody)])
    }

    @Test func aKeptReadingIsReadBackAloud() {
        // Given speech on (sound.speech, the default)
        var core = startedCore()
        let change = ReadingChange(sightID: 5, before: .init(body: nil, hs: nil), after: .init(body: "Vega", hs: 34.205))
        // When the writer kept the keypad's reading
        let actions = core.handle(.readingKept(change))
        // Then it is logged and read back, and no tone plays
        #expect(actions == [.log(LogLine(.notice, "reading kept: sight 5: Vega, Hs 34° 12'.3")), .speak("sight 5, Vega, thirty-four twelve point three")])
    }

    @Test func withoutSpeechAKeptReadingIsConfirmedByItsTone() throws {
        var settings = Settings()
        settings.set("sound.speech", .bool(false))
        var core = DaemonCore(configuration: try .init(settings: settings))
        let change = ReadingChange(sightID: 5, before: .init(body: nil, hs: nil), after: .init(body: "Vega", hs: 34.205))
        let actions = core.handle(.readingKept(change))
        #expect(actions == [.log(LogLine(.notice, "reading kept: sight 5: Vega, Hs 34° 12'.3")), .beep(.entered)])
    }

    @Test func theSpeakKeyAsksForThePresetAndWithoutSpeechIsRefused() throws {
        var core = startedCore()
        #expect(typed([55]).flatMap { core.handle(.keypad($0)) } == [.speakPreset])
        var settings = Settings()
        settings.set("sound.enabled", .bool(false))
        var quiet = DaemonCore(configuration: try .init(settings: settings))
        let refused = typed([55]).flatMap { quiet.handle(.keypad($0)) }
        #expect(refused.tones == [.refused])
        #expect(refused.messages == ["keypad: speech is off (sound.speech, sound.enabled): the preset is on `marktime plan --live` and the phone page"])
    }

    @Test func noPresetIsLoggedWithItsReasonAndSaidShortly() {
        var core = startedCore()
        #expect(core.handle(.presetUnavailable("no height of eye")) == [.log(LogLine(.warning, "no preset to say: no height of eye")), .speak("no preset")])
    }

    @Test func aSayAtTheDoorbellIsSpokenOnlyWithSpeechOn() throws {
        var core = startedCore()
        #expect(core.handle(.doorbell(.say("Vega, fifty-one forty, bearing zero seven five")))
            == [.log(LogLine(.notice, "saying for another process: Vega, fifty-one forty, bearing zero seven five")), .speak("Vega, fifty-one forty, bearing zero seven five")])
        var settings = Settings()
        settings.set("sound.speech", .bool(false))
        var quiet = DaemonCore(configuration: try .init(settings: settings))
        #expect(quiet.handle(.doorbell(.say("Vega"))).messages == ["asked to say something, but speech is off (sound.speech, sound.enabled)"])
        #expect(DoorbellMessage("say Vega, fifty-one forty") == .say("Vega, fifty-one forty"))
        #expect(DoorbellMessage("say ") == nil)
        #expect(DoorbellMessage("say " + String(repeating: "a", count: 201)) == nil)
        #expect(DoorbellMessage("say two\nlines") == nil)
    }

    @Test(arguments: [(34 + 12.3 / 60, "thirty-four twelve point three"), (5 + 2.0 / 60, "five oh two point zero"), (0, "zero zero zero point zero"),
                      (90, "ninety zero zero point zero"), (61 + 59.95 / 60, "sixty-two zero zero point zero")] as [(Double, String)])
    func anAltitudeIsSpokenAsANavigatorReadsIt(degrees: Double, words: String) {
        #expect(Spoken.altitude(degrees) == words)
    }

    @Test func undoPutsBackTheLastKeptChangeThenTheOneBefore() {
        // Given two kept changes on sight 5
        var core = startedCore()
        let first = ReadingChange(sightID: 5, before: .init(body: nil, hs: nil), after: .init(body: nil, hs: 34.205))
        let second = ReadingChange(sightID: 5, before: first.after, after: .init(body: "Vega", hs: 34.205))
        _ = core.handle(.readingKept(first))
        _ = core.handle(.readingKept(second))
        // When undo is pressed twice, the undo's own change kept between
        let one = typed([74]).flatMap { core.handle(.keypad($0)) }
        _ = core.handle(.readingKept(ReadingChange(sightID: 5, before: second.after, after: second.before, undoes: true)))
        let two = typed([74]).flatMap { core.handle(.keypad($0)) }
        // Then each restores the one before, newest first; an undo is never itself undone
        #expect(one.readings == [ReadingRequest(sightID: 5, change: .restore(second))])
        #expect(two.readings == [ReadingRequest(sightID: 5, change: .restore(first))])
        #expect(core.kept.isEmpty)
    }

    @Test func undoWithNothingKeptAndABadEntryAreRefusedWithTheirTone() {
        var core = startedCore()
        let undo = typed([74]).flatMap { core.handle(.keypad($0)) }
        #expect(undo.tones == [.refused])
        #expect(undo.messages == ["keypad: nothing to undo: no reading was kept (from the keypad or a phone) since the daemon started"])
        let bad = typed([4, 5, 10, 11, 96]).flatMap { core.handle(.keypad($0)) }
        #expect(bad.tones == [.refused])
        #expect(bad.readings.isEmpty)
        #expect(bad.messages == ["keypad: '3490' is not an angle: its minutes (90) must be under 60; give degrees then two digits of minutes: 3412.3 is 34° 12′.3, 512 is 5° 12′"])
    }

    @Test func whileThePressWaitsInThePendingFileAnEntryIsRefused() {
        // Given sight 4 stored, then a press the store refused (it waits in the pending-presses file)
        var core = startedCore()
        storedSight(&core, id: 4)
        let press = core.handle(.input(keyDown(12 * second), clock: nil)).inserts[0]
        _ = core.handle(.storeFailed(press, reason: "disk full"))
        // When a reading is typed
        let actions = typed(keypad3412dot3).flatMap { core.handle(.keypad($0)) }
        // Then it is refused, never set on sight 4
        #expect(actions.readings.isEmpty)
        #expect(actions.tones == [.refused])
    }

    @Test func lostKeysClearTheEntryWithASentence() {
        var core = startedCore()
        _ = typed([4, 5]).flatMap { core.handle(.keypad($0)) }
        let actions = core.handle(.keypadDropped)
        #expect(core.keypad.typed == "")
        #expect(actions == [.log(LogLine(.warning, "keypad: the keypad's keys were lost (the kernel's buffer overflowed): the entry is cleared; type it again")), .beep(.refused)])
    }

    @Test func aReadingWithNoAddressToAnswerIsIgnored() {
        var core = startedCore()
        let actions = core.handle(.doorbell(.reading(sight: 1, hs: 20, body: nil), from: nil, now: 0))
        #expect(actions.readings.isEmpty)
        #expect(actions.tones.isEmpty)
    }

    @Test func theWritersRefusalIsLoggedWithTheRefusedTone() {
        var core = startedCore()
        let actions = core.handle(.readingRefused("no sight to set: press the button first, then type its reading"))
        #expect(actions == [.log(LogLine(.warning, "keypad: no sight to set: press the button first, then type its reading")), .beep(.refused)])
    }

    @Test func undoRemembersAtMostItsDepth() {
        var core = startedCore()
        for i in 0..<(DaemonCore.undoDepth + 5) {
            _ = core.handle(.readingKept(ReadingChange(sightID: Int64(i), before: .init(body: nil, hs: nil), after: .init(body: nil, hs: 1))))
        }
        #expect(core.kept.count == DaemonCore.undoDepth)
        #expect(core.kept.first?.sightID == 5)
    }
}

@Suite("The phone's reading through the daemon")
struct PhoneReadingTests {
    @Test func theWireFormCarriesTheSightTheHsAndABodyWithSpaces() {
        let message = DoorbellMessage.reading(sight: 12, hs: 34.205, body: "Rigil Kent")
        #expect(message.text == "reading 12 34.205 Rigil Kent")
        #expect(DoorbellMessage(message.text) == message)
        #expect(DoorbellMessage("reading 12 - Vega") == .reading(sight: 12, hs: nil, body: "Vega"))
        #expect(DoorbellMessage("reading 12 40.5") == .reading(sight: 12, hs: 40.5, body: nil))
    }

    @Test(arguments: ["reading 0 1 Vega", "reading -3 1 Vega", "reading 12 91 Vega", "reading 12 -", "reading x 1 Vega", "reading 12 abc Vega",
                      "reading 12 nan Vega", "reading 12 1 ", "reading 12"])
    func aBrokenReadingIsNoMessage(text: String) {
        #expect(DoorbellMessage(text) == nil)
    }

    @Test func theCoreAsksTheWriterForTheAskersReading() {
        var core = startedCore()
        let actions = core.handle(.doorbell(.reading(sight: 12, hs: 34.205, body: "Vega"), from: "/run/asker", now: 11 * second))
        #expect(actions == [.setReading(ReadingRequest(sightID: 12, change: .set(hs: 34.205, body: "Vega"), asker: "/run/asker"))])
    }

    @Test func aKeptPhoneReadingIsAnsweredNotBeeped() {
        var core = startedCore()
        let change = ReadingChange(sightID: 12, before: .init(body: nil, hs: nil), after: .init(body: "Vega", hs: 34.205))
        let actions = core.handle(.readingKept(change, asker: "/run/asker"))
        #expect(actions == [.log(LogLine(.notice, "reading kept from the phone: sight 12: Vega, Hs 34° 12'.3")), .answer(.stored(12), to: "/run/asker")])
        // And it can be undone from the keypad
        #expect(core.kept == [change])
    }

    @Test func aRefusedPhoneReadingIsAnsweredWithTheReason() {
        var core = startedCore()
        let actions = core.handle(.readingRefused("unknown body 'Vegaa'", asker: "/run/asker"))
        #expect(actions == [.log(LogLine(.warning, "phone reading refused: unknown body 'Vegaa'")), .answer(.refused("unknown body 'Vegaa'"), to: "/run/asker")])
    }

    @Test func anAltitudeIsTypedAsTheKeypadTakesIt() throws {
        #expect(KeypadEntry.typed(34 + 12.3 / 60) == "3412.3")
        #expect(KeypadEntry.typed(5 + 2.0 / 60) == "502.0")
        #expect(KeypadEntry.typed(0) == "000.0")
        #expect(KeypadEntry.typed(59.99999) == "6000.0")
        for tenths in stride(from: 0, through: 90 * 600, by: 37) {
            let degrees = Double(tenths) / 600
            #expect(abs(try KeypadEntry.reading(KeypadEntry.typed(degrees)) - degrees) < 1e-9, "\(tenths)")
        }
    }
}

@Suite("Speech made 48 kHz")
struct ResampleTests {
    @Test func aRampIsResampledBetweenItsNeighbours() {
        // Given 4 samples at 2 Hz made 4 Hz: each new sample halfway, the last held
        #expect(ToneSynth.resample([0, 100, 200, 300], from: 2, to: 4) == [0, 50, 100, 150, 200, 250, 300, 300])
    }

    @Test func eSpeaksRateBecomesThePlayersWithTheLengthKept() {
        let speech = (0..<22_050).map { Int16(truncatingIfNeeded: $0 % 2000) }
        let out = ToneSynth.resample(speech, from: 22_050, to: 48_000)
        // One second stays one second: 48,000 samples
        #expect(out.count == 48_000)
        #expect(out.first == 0)
        #expect(ToneSynth.resample(speech, from: 48_000, to: 48_000) == speech)
        #expect(ToneSynth.resample([], from: 22_050, to: 48_000) == [])
    }
}
