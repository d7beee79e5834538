import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// The reading caught at the moment (#59 item 3): the bodies the keypad's body key steps
/// through, and a reading request carried out on a sight.
@Suite("The reading entry")
struct ReadingEntryTests {
    static let plymouth = LivePresetTests.plymouth
    static let evening = LivePresetTests.planned

    /// Sight 7 at the evening twilight off Plymouth, by GPS.
    static func sight(body: String? = nil, hs: Double? = nil) -> Sight {
        var s = Sight(id: 7, instant: MonotonicInstant(bootID: "b", nanoseconds: 1),
                      estimate: UTCEstimate(utc: evening, source: .gps, uncertainty: 0.5), createdAt: evening)
        (s.position, s.body, s.hs) = (plymouth, body, hs)
        return s
    }

    @Test func theBodiesStartWithThePlansChosenSetThenTheRestOfTheBand() throws {
        // Given the evening plan off Plymouth
        let plan = try SightPlan(at: Self.evening, from: Self.plymouth, sextant: SightPlanTests.sextant)
        // When the keypad's bodies are asked for the same moment
        let bodies = try ReadingEntry.bodies(at: Self.evening, from: Self.plymouth)
        // Then the chosen set comes first, by Zn, then the band's others, then the other bright bodies seen
        let chosen = plan.chosen.map(\.body)
        let band = plan.lines.filter { $0.reason == SightPlan.inBand }.map(\.body)
        #expect(Array(bodies.prefix(chosen.count + band.count)) == chosen + band)
        #expect(Set(bodies).count == bodies.count)
        #expect(bodies.contains(Body(named: "Deneb")!))  // above the band, but seen
        #expect(!bodies.contains(.sun))
    }

    @Test func byDayOnlyTheSunTheMoonAndVenusAreStepped() throws {
        // Given noon off Plymouth on 27 November 2026
        let bodies = try ReadingEntry.bodies(at: utc(2026, 11, 27, 12, 17, 0), from: Self.plymouth)
        // Then no star is offered
        #expect(!bodies.isEmpty)
        #expect(bodies.allSatisfy { [.sun, .moon, .venus].contains($0) }, "\(bodies.map(\.name))")
        #expect(bodies.first == .sun)
    }

    @Test func theBodyKeyStepsToTheNextAndRoundToTheFirst() throws {
        let bodies = try ReadingEntry.bodies(at: Self.evening, from: Self.plymouth)
        #expect(try ReadingEntry.nextBody(after: nil, at: Self.evening, from: Self.plymouth) == bodies[0])
        #expect(try ReadingEntry.nextBody(after: bodies[0].name, at: Self.evening, from: Self.plymouth) == bodies[1])
        #expect(try ReadingEntry.nextBody(after: bodies.last!.name, at: Self.evening, from: Self.plymouth) == bodies[0])
        // A body not in the list (below the horizon) starts it again
        #expect(try ReadingEntry.nextBody(after: "Canopus", at: Self.evening, from: Self.plymouth) == bodies[0])
    }

    @Test func anHsRequestSetsOnlyTheHs() throws {
        let (edit, change) = try ReadingEntry.edit(Self.sight(body: "Vega"), .hs(34.205))
        var expected = SightEdit()
        expected.hs = .set(34.205)
        #expect(edit == expected)
        #expect(change == ReadingChange(sightID: 7, before: .init(body: "Vega", hs: nil), after: .init(body: "Vega", hs: 34.205)))
    }

    @Test func aBodyRequestSetsThePlansNextBody() throws {
        let bodies = try ReadingEntry.bodies(at: Self.evening, from: Self.plymouth)
        let (edit, change) = try ReadingEntry.edit(Self.sight(body: bodies[0].name, hs: 20), .nextBody)
        var expected = SightEdit()
        expected.body = .set(bodies[1].name)
        #expect(edit == expected)
        #expect(change.after == .init(body: bodies[1].name, hs: 20))
    }

    @Test func anUndoPutsBackWhatWasThereClearingWhatWasUnset() throws {
        let earlier = ReadingChange(sightID: 7, before: .init(body: nil, hs: nil), after: .init(body: "Vega", hs: 34.205))
        let (edit, change) = try ReadingEntry.edit(Self.sight(body: "Vega", hs: 34.205), .restore(earlier))
        var expected = SightEdit()
        (expected.body, expected.hs) = (.clear, .clear)
        #expect(edit == expected)
        #expect(change == ReadingChange(sightID: 7, before: earlier.after, after: earlier.before, undoes: true))
    }

    @Test func anUndoTouchesOnlyWhatItsChangeSet() throws {
        // Given a change that set only the Hs
        let earlier = ReadingChange(sightID: 7, before: .init(body: "Vega", hs: nil), after: .init(body: "Vega", hs: 34.205))
        let (edit, _) = try ReadingEntry.edit(Self.sight(body: "Vega", hs: 34.205), .restore(earlier))
        // Then undoing it clears the Hs and leaves the body alone
        var expected = SightEdit()
        expected.hs = .clear
        #expect(edit == expected)
    }

    @Test func anUndoOfASightChangedSinceIsRefusedAndChangesNothing() {
        // Given the keypad set Hs 34° 12'.3, then the sight's page set the body to Deneb
        let earlier = ReadingChange(sightID: 7, before: .init(body: nil, hs: nil), after: .init(body: nil, hs: 34.205))
        // When undo comes
        #expect(throws: InputError("sight 7 was changed since (sight 7: Deneb, Hs 34° 12'.3): nothing undone; edit it by hand (`marktime sight edit 7`)")) {
            _ = try ReadingEntry.edit(Self.sight(body: "Deneb", hs: 34.205), .restore(earlier))
        }
    }

    @Test func aSightWithNoPositionHasNoPlanToStepThrough() {
        var s = Self.sight()
        s.position = nil
        #expect(throws: InputError("sight 7 has no GPS position or DR, so no plan says which bodies were up: "
            + "give it a DR (`marktime sight edit 7 --dr POS`) or set the body by hand (`--body NAME`)")) {
            _ = try ReadingEntry.edit(s, .nextBody)
        }
    }

    @Test func aFlaggedPositionIsNotUsedButTheDRIs() throws {
        var s = Self.sight()
        s.positionFlag = "faster than the boat can"
        s.position = at(-33, 151)
        s.dr = Self.plymouth
        let (_, change) = try ReadingEntry.edit(s, .nextBody)
        #expect(change.after.body == (try ReadingEntry.bodies(at: Self.evening, from: Self.plymouth))[0].name)
    }
}

/// What the phone's quick entry starts from, and sets.
@Suite("The quick entry")
struct QuickEntryTests {
    static let sextant = SightPlanTests.sextant

    @Test func theHsAndTheBodyAreSetTheBodyByItsAlmanacName() throws {
        let (edit, change) = try ReadingEntry.edit(ReadingEntryTests.sight(), .set(hs: 20.5, body: "rigil kent"))
        var expected = SightEdit()
        (expected.hs, expected.body) = (.set(20.5), .set("Rigil Kentaurus"))
        #expect(edit == expected)
        #expect(change.after == .init(body: "Rigil Kentaurus", hs: 20.5))
    }

    @Test func anUnknownBodyIsRefused() {
        #expect(throws: InputError.self) { _ = try ReadingEntry.edit(ReadingEntryTests.sight(), .set(hs: nil, body: "Vegaa")) }
    }

    @Test func thePlansFirstChosenBodyIsOfferedWithItsPredictedHs() throws {
        // Given a sight at the evening twilight off Plymouth, and no sight before it
        let sight = ReadingEntryTests.sight()
        let plan = try SightPlan(at: ReadingEntryTests.evening, from: ReadingEntryTests.plymouth, sextant: Self.sextant)
        // When the quick entry is asked for
        let s = try #require(ReadingEntry.suggestion(for: sight, sextant: Self.sextant, recent: []))
        // Then it offers the plan's first chosen body, with the plan's own Hs for it then
        #expect(s.body == plan.chosen[0].body)
        #expect(s.hs == plan.chosen[0].hs)
        #expect(s.bodies == (try ReadingEntry.bodies(at: ReadingEntryTests.evening, from: ReadingEntryTests.plymouth)))
    }

    @Test func aBodyAlreadyShotInTheHourIsPassedOver() throws {
        let plan = try SightPlan(at: ReadingEntryTests.evening, from: ReadingEntryTests.plymouth, sextant: Self.sextant)
        let earlier = ReadingEntryTests.sight(body: plan.chosen[0].body.name)
        let s = try #require(ReadingEntry.suggestion(for: ReadingEntryTests.sight(), sextant: Self.sextant, recent: [earlier]))
        #expect(s.body == plan.chosen[1].body)
    }

    @Test func aSightsOwnBodyIsKeptAndWithoutASextantNoHsIsPredicted() throws {
        let s = try #require(ReadingEntry.suggestion(for: ReadingEntryTests.sight(body: "Capella"), sextant: nil, recent: []))
        #expect(s.body == Body(named: "Capella"))
        #expect(s.hs == nil)
    }

    @Test func withoutAPositionThereIsNoQuickEntryPlan() {
        var sight = ReadingEntryTests.sight()
        sight.position = nil
        #expect(ReadingEntry.suggestion(for: sight, sextant: Self.sextant, recent: []) == nil)
    }
}
