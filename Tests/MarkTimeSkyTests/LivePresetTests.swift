import Foundation
import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// The preset as the moment comes (#59 item 2): what `plan --live` and the page tick, and what is spoken.
@Suite("The live preset")
struct LivePresetTests {
    static let plymouth = at(50 + 10.0 / 60, -(4 + 20.0 / 60))
    static let planned = utc(2026, 11, 27, 17, 0, 32)

    @Test func atThePlansTimeEachBodysLineIsThePlans() throws {
        // Given the evening plan off Plymouth
        let plan = try SightPlan(at: Self.planned, from: Self.plymouth, sextant: SightPlanTests.sextant)
        // When the live preset is asked at the plan's own time
        let live = try LivePreset(plan, sextant: SightPlanTests.sextant, window: nil).lines(at: Self.planned)
        // Then Hs, Zn, Hc and the rate are the plan's, exactly
        #expect(live.map(\.body) == plan.chosen.map(\.body))
        #expect(live.map(\.hs) == plan.chosen.map(\.hs))
        #expect(live.map(\.computed) == plan.chosen.map(\.computed))
        #expect(live.map(\.hsPerMinute) == plan.chosen.map(\.hsPerMinute))
    }

    @Test func aMinuteLaterEachHsHasMovedByItsRate() throws {
        let plan = try SightPlan(at: Self.planned, from: Self.plymouth, sextant: SightPlanTests.sextant)
        let preset = LivePreset(plan, sextant: SightPlanTests.sextant, window: nil)
        let later = try preset.lines(at: Self.planned.adding(nanoseconds: 60_000_000_000))
        for (now, then) in zip(plan.chosen, later) {
            // The rate is the change over that very minute: the same to a thousandth of a minute of arc
            #expect(abs((then.hs - now.hs) * 60 - now.hsPerMinute) < 1e-3, "\(now.body.name)")
        }
    }

    @Test func theWindowIsToldBeforeInsideAndAfter() {
        let window = utc(2026, 11, 27, 16, 42, 0)...utc(2026, 11, 27, 17, 20, 0)
        let preset = LivePreset(bodies: [.venus], position: Self.plymouth, sextant: SightPlanTests.sextant, window: window)
        #expect(preset.windowText(at: utc(2026, 11, 27, 16, 30, 0)) == "opens in 12 min (16:42 UTC)")
        #expect(preset.windowText(at: utc(2026, 11, 27, 16, 57, 1)) == "23 min left (until 17:20 UTC)")
        #expect(preset.windowText(at: utc(2026, 11, 27, 17, 23, 0)) == "closed 3 min ago (17:20 UTC)")
        #expect(LivePreset(bodies: [.venus], position: Self.plymouth, sextant: SightPlanTests.sextant, window: nil)
            .windowText(at: utc(2026, 11, 27, 16, 30, 0)) == nil)
    }

    @Test func theNextBodyGoesRoundTheSetBothWays() {
        var preset = LivePreset(bodies: [.venus, .jupiter, .saturn], position: Self.plymouth, sextant: SightPlanTests.sextant, window: nil)
        preset.advance()
        preset.advance()
        preset.advance()
        #expect(preset.next == 0)
        preset.advance(by: -1)
        #expect(preset.next == 2)
    }

    @Test func aPresetIsSpokenAsANavigatorReadsItOut() {
        func line(_ body: Body, hs: Double, zn: Double) -> SightPlan.Line {
            SightPlan.Line(body: body, computed: Computed(altitude: hs, azimuth: zn), magnitude: 0, hs: hs, hsPerMinute: 0, chosen: true, reason: nil)
        }
        let vega = Body.star(Star.catalogue.first { $0.name == "Vega" }!)
        #expect(LivePreset.spoken(line(vega, hs: 51 + 40.2 / 60, zn: 75.3), limb: .lower) == "Vega, fifty-one forty, bearing zero seven five")
        #expect(LivePreset.spoken(line(.sun, hs: 5 + 5.0 / 60, zn: 259.6), limb: .lower) == "Sun lower limb, five oh five, bearing two six zero")
        #expect(LivePreset.spoken(line(.moon, hs: 12, zn: 359.7), limb: .upper) == "Moon upper limb, twelve zero zero, bearing zero zero zero")
        #expect(LivePreset.spoken(line(.jupiter, hs: -0.5, zn: 90), limb: .lower) == "Jupiter, below the horizon, bearing zero nine zero")
    }
}
