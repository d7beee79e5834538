import Testing
@testable import MarkTimeSky

@Suite("Body names")
struct BodyTests {
    @Test func theCatalogueHoldsTheAlmanacs57StarsAndPolaris() {
        #expect(Star.catalogue.compactMap(\.number) == Array(1...57))
        #expect(Star.catalogue.filter { $0.number == nil }.map(\.name) == ["Polaris"])
    }

    @Test func namesMatchInAnyCaseAndByTheAlmanacsAbbreviations() {
        #expect(Body(named: "sun") == .sun)
        #expect(Body(named: "VENUS") == .venus)
        #expect(Body(named: "vega")?.name == "Vega")
        #expect(Body(named: "Rigil Kent.")?.name == "Rigil Kentaurus")
        #expect(Body(named: "Zuben'ubi")?.name == "Zubenelgenubi")
        #expect(Body(named: "al na'ir")?.name == "Alnair")
        #expect(Body(named: "49")?.name == "Vega")
    }

    @Test func anUnknownNameIsRefusedWithTheNearestNames() {
        #expect(Body(named: "Vegga") == nil)
        #expect(Body.nearest(to: "Vegga") == ["Vega", "Venus", "Adhara"])
        #expect(Body.nearest(to: "Jupitr").first == "Jupiter")
    }
}
