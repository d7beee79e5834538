import MarkTimeCore
import MarkTimePlaces
import MarkTimeShare
import Testing

@Suite("OwnTracks messages")
struct OwnTracksTests {
    let now = UTCTime(year: 2026, month: 11, day: 23, hour: 12)!
    let location = OwnTracks.Topic("owntracks/anna/phone")!

    func read(_ text: String, on topic: OwnTracks.Topic? = nil) throws(InputError) -> OwnTracks.Incoming {
        try OwnTracks.read(topic: topic ?? location, payload: Array(text.utf8), now: now)
    }

    func refusal(_ text: String, on topic: OwnTracks.Topic? = nil) -> String? {
        do { _ = try read(text, on: topic); return nil } catch { return error.description }
    }

    @Test func topicsNameTheDeviceAndTheirKind() {
        #expect(OwnTracks.Topic("owntracks/anna/phone")?.kind == .location)
        #expect(OwnTracks.Topic("owntracks/anna/phone/event") == OwnTracks.Topic("owntracks/anna/phone/event"))
        #expect(OwnTracks.Topic("owntracks/anna/phone/event")?.base == "owntracks/anna/phone")
        #expect(OwnTracks.Topic("owntracks/anna/phone/info")?.kind == .info)
        #expect(OwnTracks.Topic("owntracks/anna/phone/cmd") == nil)
        #expect(OwnTracks.Topic("owntracks/anna") == nil)
        #expect(OwnTracks.Topic("owntracks//phone") == nil)
        #expect(OwnTracks.Topic("other/anna/phone") == nil)
        #expect(OwnTracks.Topic.isDevice("owntracks/anna/phone/event") == false)
    }

    @Test func aLocationBecomesAFixWithItsTimeAndAccuracy() throws {
        // Given a phone's location with OwnTracks' usual fields
        let text = #"{"_type":"location","lat":-27.3807,"lon":153.3807,"tst":1795435200,"acc":12,"batt":80,"tid":"AN","t":"u","vel":0}"#
        // When it is read
        let incoming = try read(text)
        // Then it is a fix at that position and second, with its accuracy
        #expect(incoming == .location(GeoFix(position: try Position(latitude: -27.3807, longitude: 153.3807), error: 12,
                                              time: UTCTime(wholeSeconds: 1_795_435_200))))
    }

    @Test func aTransitionNamesItsPlaceAndEvent() throws {
        let topic = OwnTracks.Topic("owntracks/anna/phone/event")!
        let text = #"{"_type":"transition","event":"enter","desc":" Home ","lat":-27.38,"lon":153.38,"tst":1795435200,"wtst":1,"t":"c"}"#
        #expect(try read(text, on: topic) == .transition(place: "Home", kind: .enter, fix: GeoFix(
            position: try Position(latitude: -27.38, longitude: 153.38), error: nil, time: UTCTime(wholeSeconds: 1_795_435_200))))
    }

    @Test func aCardGivesTheDevicesNameAndOtherTypesAreIgnored() throws {
        #expect(try read(#"{"_type":"card","name":"Anna","face":"iVBOR"}"#, on: OwnTracks.Topic("owntracks/anna/phone/info")) == .card(name: "Anna"))
        #expect(try read(#"{"_type":"lwt","tst":1795435200}"#) == .ignored(type: "lwt"))
    }

    @Test func badPayloadsAreRefusedWithTheirReason() {
        let t = "1795435200"
        let rows: [(String, String)] = [
            ("not json", "payload is not an OwnTracks JSON object: not valid JSON"),
            ("[1]", "payload is not an OwnTracks JSON object: the JSON is not an object"),
            ("null", "payload is not an OwnTracks JSON object: the JSON is null, not an object"),
            (" null ", "payload is not an OwnTracks JSON object: the JSON is null, not an object"),
            ("{}", "payload has no _type"),
            (#"{"_type":7}"#, "payload is not an OwnTracks JSON object: _type has the wrong type"),
            (#"{"_type":"teleport"}"#, "unknown _type 'teleport'"),
            (#"{"_type":"location","lat":"x","lon":1,"tst":\#(t)}"#, "payload is not an OwnTracks JSON object: lat has the wrong type"),
            (#"{"_type":"location","lat":true,"lon":1,"tst":\#(t)}"#, "payload is not an OwnTracks JSON object: lat has the wrong type"),
            (#"{"_type":"location","lon":1,"tst":\#(t)}"#, "lat and lon must be numbers"),
            (#"{"_type":"location","lat":91,"lon":1,"tst":\#(t)}"#, "lat 91.0, lon 1.0 is not a position on Earth"),
            (#"{"_type":"location","lat":1,"lon":1}"#, "tst is missing, or not a time from 2000 on"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":946684799}"#, "tst is missing, or not a time from 2000 on"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":1795525201}"#, "tst is 90001 s ahead of the boat's clock (more than 300 s): the phone's clock, or the boat's, is wrong"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":1795435501}"#, "tst is 301 s ahead of the boat's clock (more than 300 s): the phone's clock, or the boat's, is wrong"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":\#(t),"acc":-1}"#, "acc must be metres from 0 to 100 km"),
            (#"{"_type":"card","name":"Ben"}"#, "a card message on a location topic"),
        ]
        for (payload, reason) in rows { #expect(refusal(payload) == reason, "\(payload)") }
        #expect(refusal(#"{"_type":"transition","event":"arrive","desc":"Home","lat":1,"lon":1,"tst":\#(t)}"#,
                        on: OwnTracks.Topic("owntracks/a/b/event")) == "transition's event is not enter or leave")
        #expect(refusal(String(repeating: " ", count: 65_537)) == "payload of 65537 bytes is over the 65536-byte limit")
    }

    @Test func aCommandAsksForTheBoatsPositionOrPlaces() {
        #expect(OwnTracks.command(Array(#"{"_type":"cmd","action":"reportLocation"}"#.utf8)) == "reportLocation")
        #expect(OwnTracks.command(Array(#"{"_type":"cmd","action":"waypoints"}"#.utf8)) == "waypoints")
        #expect(OwnTracks.command(Array(#"{"_type":"cmd","action":"dump"}"#.utf8)) == nil)
        #expect(OwnTracks.command(Array(#"{"_type":"location","action":"waypoints"}"#.utf8)) == nil)
        #expect(OwnTracks.command(Array("garbage".utf8)) == nil)
    }

    @Test func theBoatsLocationCarriesOwnTracksFields() throws {
        // Given a fix at 5 m/s on 93.6° with a 4 m error
        let fix = Fix(position: try Position(latitude: -27.3807, longitude: 153.3807), mode: 3, horizontalError: 4.4, time: nil,
                      receivedAt: MonotonicInstant(bootID: "b", nanoseconds: 0), speed: 5, course: 93.6)
        // When it is written as the boat's location
        let json = String(decoding: OwnTracks.location(fix, time: UTCTime(wholeSeconds: 1_795_435_200), tid: "MT", trigger: "p", inRegions: ["Home"]), as: UTF8.self)
        // Then it has OwnTracks' names and units (vel in km/h), in a fixed order
        #expect(json == #"{"_type":"location","lat":-27.3807,"lon":153.3807,"tst":1795435200,"tid":"MT","t":"p","acc":4,"vel":18,"cog":94,"inregions":["Home"]}"#)
    }

    @Test func theBoatsTransitionAndWaypoints() throws {
        // Given Home, stored at 1,795,435,200.4 s
        let home = try Place(name: "Home", kind: .home, center: try Position(latitude: -27.3807, longitude: 153.3807), radius: 150,
                             created: UTCTime(nanosecondsSinceEpoch: 1_795_435_200_400_000_000))
        let event = PlaceEvent(place: "Home", kind: .leave, time: UTCTime(wholeSeconds: 1_795_435_900), position: home.center)
        // When the boat leaves it, and when it publishes its waypoints
        // Then the transition's wtst is the waypoint's tst: Home's creation, in whole seconds
        #expect(String(decoding: OwnTracks.transition(event, tid: "MT", error: nil, waypointTime: OwnTracks.waypointTimes([home])["Home"]), as: UTF8.self)
            == #"{"_type":"transition","event":"leave","desc":"Home","lat":-27.3807,"lon":153.3807,"tst":1795435900,"wtst":1795435200,"tid":"MT","t":"c"}"#)
        #expect(String(decoding: OwnTracks.waypoints([home]), as: UTF8.self)
            == #"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Home","lat":-27.3807,"lon":153.3807,"rad":150,"tst":1795435200}]}"#)
    }

    @Test("A waypoint's tst is its place's creation second, unique, and the same at every publish")
    func waypointTimesAreStableAndUnique() throws {
        // Given three places, two of them created within the same second, and one never stored
        func place(_ name: String, _ ns: Int64?) throws -> Place {
            try Place(name: name, kind: .other, center: try Position(latitude: 1, longitude: 2), radius: 100,
                      created: ns.map { UTCTime(nanosecondsSinceEpoch: $0) })
        }
        let places = [try place("Reef", 1_795_435_200_900_000_000), try place("Bay", 1_795_435_200_100_000_000),
                      try place("Cove", 1_795_435_100_000_000_000), try place("Draft", nil)]
        // When their waypoint times are taken, in two different orders
        // Then each is its creation second, the second of a pair takes the next one, and order does not matter
        let expected: [String: Int64] = ["Cove": 1_795_435_100, "Bay": 1_795_435_200, "Reef": 1_795_435_201, "Draft": 1_795_435_202]
        #expect(OwnTracks.waypointTimes(places) == expected)
        #expect(OwnTracks.waypointTimes(places.reversed()) == expected)
    }

    @Test("At rest, a location leaves out vel and cog; a 0 m accuracy is left out too")
    func zeroValuesAreLeftOut() throws {
        // Given a fix at rest (0.1 m/s), its course 0 and its error 0.3 m; and one under way due north
        let position = try Position(latitude: -27.3807, longitude: 153.3807)
        let still = Fix(position: position, mode: 3, horizontalError: 0.3, time: nil, receivedAt: MonotonicInstant(bootID: "b", nanoseconds: 0),
                        speed: 0.1, course: 0)
        var north = still
        north.speed = 3
        // When each is written as the boat's location
        let time = UTCTime(wholeSeconds: 1_795_435_200)
        // Then the one at rest has neither vel nor cog nor acc, and the one under way has vel and cog 0
        #expect(String(decoding: OwnTracks.location(still, time: time, tid: "MT", trigger: "p", inRegions: []), as: UTF8.self)
            == #"{"_type":"location","lat":-27.3807,"lon":153.3807,"tst":1795435200,"tid":"MT","t":"p","inregions":[]}"#)
        #expect(String(decoding: OwnTracks.location(north, time: time, tid: "MT", trigger: "p", inRegions: []), as: UTF8.self)
            == #"{"_type":"location","lat":-27.3807,"lon":153.3807,"tst":1795435200,"tid":"MT","t":"p","vel":11,"cog":0,"inregions":[]}"#)
    }

    @Test func theBoatGoesOutFirstThenOnAMoveOrWhenTheIntervalHasPassed() throws {
        // Given a policy of 300 s and 100 m
        var policy = LocationPolicy(interval: 300, minMove: 100)
        let start = try Position(latitude: -27.3807, longitude: 153.3807)
        func fix(_ seconds: Int64, north metres: Double) throws -> GeoFix {
            GeoFix(position: try Position(latitude: start.latitude + metres / 111_194.9, longitude: start.longitude), error: nil,
                   time: UTCTime(wholeSeconds: 1_795_435_200 + seconds))
        }
        // When fixes come: the first, 50 m on, 150 m on, then 299 s and 300 s after that without moving
        let triggers = [try fix(0, north: 0), try fix(10, north: 50), try fix(20, north: 150), try fix(319, north: 150), try fix(320, north: 150)]
            .map { policy.consider($0) }
        // Then the first goes out as a ping, the 150 m as a move, and the 300 s as a ping
        #expect(triggers == ["p", nil, "t", nil, "p"])
    }
}

@Suite("What a full outbox drops")
struct OutboxDropsTests {
    @Test("The oldest positions go first, then the oldest messages of any kind; below the limit nothing goes")
    func drops() {
        #expect(ShareMessage.drops(count: 5_005, locations: 100) == (5, 0))
        #expect(ShareMessage.drops(count: 5_010, locations: 3) == (3, 7))
        #expect(ShareMessage.drops(count: 5_000, locations: 5_000) == (0, 0))
        #expect(ShareMessage.drops(count: 12, locations: 12, limit: 10) == (2, 0))
    }
}
