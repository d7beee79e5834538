import MarkTimeCore
import MarkTimePlaces
import MarkTimeShare
import Testing

/// What a family phone's message does to its member, decided apart from the store.
@Suite("A shared message's effect on its member")
struct SharedMoveTests {
    let t0 = UTCTime(wholeSeconds: 1_790_000_000)
    let harbour = try! Position(latitude: -27.3807, longitude: 153.3807)

    func member(reportedAt: UTCTime?) -> Member {
        var m = Member(name: "Ana", color: .blue)
        m.reportedAt = reportedAt
        return m
    }

    @Test func aCardNamesTheDeviceAndAnotherKindIsOnlySeen() {
        // Given a card and a status message
        // Then the one names the device and the other does nothing
        #expect(SharedEffect(.card(name: "Ana's phone")) == .name("Ana's phone"))
        #expect(SharedEffect(.ignored(type: "status")) == .nothing)
    }

    @Test func aLocationNoNewerThanTheLastReportIsStaleAndReadsNoPlaces() throws {
        // Given a member last reported at t0 and a location of the same time
        var ana = member(reportedAt: t0)
        let move = SharedMove(fix: GeoFix(position: harbour, error: 10, time: t0))
        var read = 0
        // When it is applied
        let outcome = move.apply(to: &ana, places: { read += 1; return [] }, rules: GeofenceRules())
        // Then it is stale, the places were not read, and the member is as it was
        #expect(outcome == .stale(member: "Ana"))
        #expect(read == 0)
        #expect(ana == member(reportedAt: t0))
    }

    @Test func aTransitionOfTheSameTimeIsNotStaleAndEntersTheNamedPlace() throws {
        // Given a member last reported at t0, and the phone's enter of the harbour at t0
        var ana = member(reportedAt: t0)
        let place = try Place(name: "Harbour", kind: .harbour, center: harbour, radius: 150)
        let effect = SharedEffect(.transition(place: "harbour", kind: .enter, fix: GeoFix(position: harbour, error: 10, time: t0)))
        guard case .move(let move) = effect else { Issue.record("not a move: \(effect)"); return }
        // When it is applied
        let outcome = move.apply(to: &ana, places: { [place] }, rules: GeofenceRules())
        // Then the member enters the harbour at once
        #expect(outcome == .moved(member: "Ana", events: [PlaceEvent(place: "Harbour", kind: .enter, time: t0, position: harbour)]))
        #expect(ana.geofence.place == "Harbour")
    }
}
