import MarkTimePlaces
import Testing

@Suite("The family clock")
struct FamilyClockTests {
    @Test func sectorsAreThePlaceKindsThenUnknown() {
        #expect(FamilyClock.sectors == ["home", "work", "school", "harbour", "anchorage", "other", "unknown"])
    }

    @Test func aHandPointsToTheMiddleOfItsSector() {
        // Given one member at home, then its hand is at half of the first 360/7° sector
        let clock = FamilyClock(members: [("Anna", .blue, .home)])
        #expect(clock.hands.map(\.sector) == ["home"])
        #expect(abs((clock.hands.first?.angle ?? 0) - 360.0 / 7 / 2) < 1e-9)
    }

    @Test func handsSharingASectorFanOut() {
        // Given two members with unknown places, then their hands split the Unknown sector in thirds
        let clock = FamilyClock(members: [("Anna", .blue, nil), ("Ben", .green, nil)])
        let start = 360.0 * 6 / 7, width = 360.0 / 7
        #expect(clock.hands.map(\.name) == ["Anna", "Ben"])
        #expect(abs(clock.hands[0].angle - (start + width / 3)) < 1e-9)
        #expect(abs(clock.hands[1].angle - (start + 2 * width / 3)) < 1e-9)
    }

    @Test func atMostSixHands() {
        let seven = (1...7).map { ("M\($0)", MemberColor.red, PlaceKind?.none) }
        #expect(FamilyClock(members: seven).hands.count == 6)
    }

    @Test func theSVGHasASectorPerKindAHandPerMemberAndTheLegend() {
        let svg = FamilyClock(members: [("Anna", .blue, .harbour)]).svg(legend: ["Anna: at Marina <A>"])
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.components(separatedBy: "<path ").count - 1 == 7)
        #expect(svg.components(separatedBy: "<line ").count - 1 == 1)
        #expect(svg.contains("stroke=\"blue\""))
        #expect(svg.contains(">Anna: at Marina &lt;A&gt;</text>"))
        #expect(svg.contains(">Harbour</text>"))
    }
}
