import MarkTimeCore
import MarkTimePlaces
import Testing

let marina = try! Place(name: "Marina", kind: .harbour, center: at(-27.40, 153.40), radius: 300)

@Suite("A friend's reported transition")
struct TransitionTests {
    @Test("Entering a named place moves the person there at once, with one enter event")
    func enteringMovesAtOnce() {
        // Given someone nowhere
        var g = Geofence()
        let f = fix(homeCenter, 10, second: 5)
        // When their phone reports entering "home" (any case)
        let events = g.apply(transition: ("home", .enter), fix: f, places: [home, marina], rules: GeofenceRules())
        // Then they are at Home since the fix's time, with one enter event
        #expect(events == [PlaceEvent(place: "Home", kind: .enter, time: f.time, position: f.position)])
        #expect(g.place == "Home")
        #expect(g.since == f.time)
    }

    @Test("Entering a place from another leaves the first: a leave, then the enter")
    func enteringFromAnotherLeavesIt() {
        // Given someone at the Marina
        var g = Geofence(place: "Marina", since: t0)
        let f = fix(homeCenter, 10, second: 5)
        // When their phone reports entering Home, from Home
        let events = g.apply(transition: ("Home", .enter), fix: f, places: [home, marina], rules: GeofenceRules())
        // Then they leave the Marina and enter Home, at the fix's time
        #expect(events == [PlaceEvent(place: "Marina", kind: .leave, time: f.time, position: f.position),
                           PlaceEvent(place: "Home", kind: .enter, time: f.time, position: f.position)])
        #expect(g.place == "Home")
    }

    @Test("An enter sent from far away is not taken: it is a fix like any other")
    func aFarEnterIsAFix() {
        // Given someone nowhere, and an "enter Home" sent from 738 km away (error 5 m)
        var g = Geofence()
        let f = fix(homeCenter, 738_000, second: 5)
        // When it is applied
        let events = g.apply(transition: ("Home", .enter), fix: f, places: [home, marina], rules: GeofenceRules(confirmations: 1))
        // Then nothing happens: the fix is at no place
        #expect(events == [])
        #expect(g.place == nil)
        // And one from the edge of Home's leave margin (200 m + 20 m + its 5 m error) is taken
        var edge = Geofence()
        #expect(edge.apply(transition: ("Home", .enter), fix: fix(homeCenter, 224, second: 6), places: [home], rules: GeofenceRules()).count == 1)
        #expect(edge.place == "Home")
    }

    @Test("Leaving a place the person is not at changes nothing")
    func leavingElsewhereIsIgnored() {
        // Given someone at the Marina
        var g = Geofence(place: "Marina", since: t0)
        // When their phone reports leaving Home
        let events = g.apply(transition: ("Home", .leave), fix: fix(homeCenter, 10, second: 5), places: [home, marina], rules: GeofenceRules())
        // Then nothing happens
        #expect(events == [])
        #expect(g == Geofence(place: "Marina", since: t0))
    }

    @Test("Leaving the place the person is at clears it")
    func leavingClears() {
        var g = Geofence(place: "Home", since: t0)
        let f = fix(homeCenter, 900, second: 5)
        let events = g.apply(transition: ("Home", .leave), fix: f, places: [home], rules: GeofenceRules())
        #expect(events == [PlaceEvent(place: "Home", kind: .leave, time: f.time, position: f.position)])
        #expect(g == Geofence())
    }

    @Test("A transition naming an unknown place is an ordinary fix for the state machine")
    func unknownPlaceIsAFix() {
        // Given someone nowhere, and a transition for a waypoint marktime does not know, sent from Home
        var g = Geofence()
        let f = fix(homeCenter, 10, second: 5)
        // When it is applied with one confirmation needed
        let events = g.apply(transition: ("Aunt's", .enter), fix: f, places: [home], rules: GeofenceRules(confirmations: 1))
        // Then the fix puts them at Home, as `member report` would
        #expect(events == [PlaceEvent(place: "Home", kind: .enter, time: f.time, position: f.position)])
    }
}

@Suite("The rules for a member's reports")
struct MemberRulesTests {
    @Test("A location no newer than the last report is stale (a retained one delivered again); a transition at the same time is not")
    func staleness() {
        var m = Member(name: "Anna", color: .red)
        m.reportedAt = UTCTime(nanosecondsSinceEpoch: t0.nanosecondsSinceEpoch + 10_000_000_000)
        #expect(m.isStale(fix(homeCenter, 0, second: 9)))
        #expect(m.isStale(fix(homeCenter, 0, second: 10)))
        #expect(!m.isStale(fix(homeCenter, 0, second: 11)))
        #expect(!m.isStale(fix(homeCenter, 0, second: 10), transition: true))
        #expect(m.isStale(fix(homeCenter, 0, second: 9), transition: true))
        #expect(!Member(name: "Ben", color: .blue).isStale(fix(homeCenter, 0, second: 0)))
    }

    @Test("A quiet fix matters only when it moves the geofence, is the first, or is as far as the quiet distance")
    func quietReports() {
        // Given a member at Home with a stored position at its centre
        var m = Member(name: "Me", color: .red, isMe: true)
        m.geofence = Geofence(place: "Home", since: t0, candidate: "Home", streak: 0)
        m.position = homeCenter
        // Then a fix 99 m away inside Home does not matter, one 100 m away does
        #expect(!m.reportMatters(fix(homeCenter, 99, second: 1), places: [home], rules: GeofenceRules(), quietDistance: 100))
        #expect(m.reportMatters(fix(homeCenter, 100.5, second: 1), places: [home], rules: GeofenceRules(), quietDistance: 100))
        // And with no stored position, any fix matters
        m.position = nil
        #expect(m.reportMatters(fix(homeCenter, 1, second: 1), places: [home], rules: GeofenceRules(), quietDistance: 100))
        // And a fix that starts a move out of Home (its streak changes) matters
        m.position = homeCenter
        #expect(m.reportMatters(fix(homeCenter, 5_000, second: 1), places: [home], rules: GeofenceRules(), quietDistance: 10_000))
    }

    @Test("The member made for a report without a name is Me, red, marked as me")
    func defaultMe() {
        #expect(Member.defaultMe.name == "Me")
        #expect(Member.defaultMe.color == .red)
        #expect(Member.defaultMe.isMe)
    }
}

@Suite("The daemon's copy of the anchor watch")
struct AnchorKeeperTests {
    let second: Int64 = 1_000_000_000
    func row(state: AnchorWatch.State = .watching, outside: Int = 0, boot: String? = "boot-a") -> StoredAnchorWatch {
        StoredAnchorWatch(watch: AnchorWatch(anchor: homeCenter, radius: 60, droppedAt: 0, state: state, outside: outside),
                          droppedAt: t0, bootID: boot)
    }

    @Test("No row, no watch")
    func noRow() {
        var keeper = AnchorKeeper()
        let step = keeper.advance(row: nil, fixes: [], now: 0, bootID: "boot-a")
        #expect(step == nil)
    }

    @Test("A fix inside the radius writes nothing; the third outside raises the alarm and writes")
    func writesOnlyOnChange() throws {
        // Given a watch of this boot
        var keeper = AnchorKeeper()
        let insideStep = keeper.advance(row: row(), fixes: [fix(homeCenter, 10, second: 1)], now: 1 * second, bootID: "boot-a")
        let inside = try #require(insideStep)
        // Then a fix inside changes no state: nothing to write
        #expect(!inside.write)
        #expect(inside.actions == [])
        #expect(inside.watch.watch.distance.map { ($0 * 10).rounded() / 10 } == 10)
        // When fixes 100 m out come, the streak grows (a write each), and the third sounds the alarm
        let out = (2...4).map { fix(homeCenter, 100, second: $0) }
        let firstStep = keeper.advance(row: row(), fixes: [out[0]], now: 2 * second, bootID: "boot-a")
        let first = try #require(firstStep)
        #expect(first.write && first.actions == [])
        keeper.written(first.watch)
        let restStep = keeper.advance(row: first.watch, fixes: Array(out[1...]), now: 4 * second, bootID: "boot-a")
        let rest = try #require(restStep)
        #expect(rest.write)
        #expect(rest.actions == [.soundAlarm])
        #expect(rest.watch.watch.state == .alarm)
    }

    @Test("A row from another boot is rebased and written with this boot")
    func anotherBoot() throws {
        var keeper = AnchorKeeper()
        let stepStep = keeper.advance(row: row(boot: "boot-old"), fixes: [], now: 50 * second, bootID: "boot-a")
        let step = try #require(stepStep)
        #expect(step.write)
        #expect(step.watch.bootID == "boot-a")
        #expect(step.watch.watch.lastFix == 50 * second)
        #expect(step.actions == [])
    }

    func status(stopped: Bool = false, droppedAt: UTCTime, state: String = "watching") -> DaemonStatus {
        var s = DaemonStatus(pid: 7, bootID: "boot-a", startedAt: 0, heartbeat: 9 * second, stopped: stopped)
        s.anchor = AnchorLive(droppedAt: droppedAt, state: state, lastFix: 9 * second, lastFixTime: t0, distance: 42, bearing: 120)
        return s
    }

    @Test("A running daemon's distance and bearing are laid over its own watch's row")
    func liveOverRow() {
        // Given the row, and a running daemon's status for the same watch in the same state
        // When it is laid over the row
        let shown = row().live(status(droppedAt: t0))
        // Then the daemon's distance, bearing and last fix show
        #expect(shown.watch.distance == 42)
        #expect(shown.watch.bearing == 120)
        #expect(shown.watch.lastFix == 9 * second)
        #expect(shown.watch.state == .watching)
    }

    @Test("A stopped daemon's, another watch's or another state's figures are not laid over the row")
    func notLive() {
        let other = t0.adding(nanoseconds: 60 * second)
        for s in [status(stopped: true, droppedAt: t0), status(droppedAt: other), status(droppedAt: t0, state: "alarm")] {
            #expect(row().live(s) == row())
        }
        #expect(row().live(nil) == row())
    }
}

@Suite("A member joining the crew")
struct MemberJoiningTests {
    @Test("The first colour no member has; a taken name or a seventh hand is refused")
    func joining() throws {
        let crew = [Member(name: "Anna", color: .red), Member(name: "Ben", color: .blue)]
        let cara = try Member.joining(crew, name: "Cara", color: nil, isMe: false)
        #expect(cara.color == MemberColor.allCases.first { $0 != .red && $0 != .blue })
        #expect(try Member.joining(crew, name: "Cara", color: .red, isMe: true).color == .red)
        #expect(throws: InputError("a member named 'Anna' already exists")) { try Member.joining(crew, name: "anna", color: nil, isMe: false) }
        let six = MemberColor.allCases.prefix(6).enumerated().map { Member(name: "M\($0.offset)", color: $0.element) }
        #expect(throws: InputError("the clock has six hands: remove a member before adding another")) {
            try Member.joining(six, name: "Seven", color: nil, isMe: false)
        }
    }

    @Test func aNewMembersNameIsTrimmedAndABlankOneRefused() throws {
        let crew = [Member(name: "Anna", color: .red)]
        #expect(try Member.joining(crew, name: "  Cara \t", color: nil, isMe: false).name == "Cara")
        #expect(throws: InputError("a member needs a name, e.g. Skipper")) { try Member.joining(crew, name: "  ", color: nil, isMe: false) }
    }
}
