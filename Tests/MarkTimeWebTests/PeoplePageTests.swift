import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimePeople
import MarkTimeStore
import Testing
@testable import MarkTimeWeb

@Suite("The phone page: people and the Align slider")
struct PeoplePageTests {
    @Test func addingSomeoneByCityStoresTheCanonicalZone() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            // Given an old name for a city's zone
            let r = try await client.execute(uri: "/people", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&name=Raj&city=Asia%2FCalcutta"))
            // Then today's identifier is stored, and Raj is on the board
            #expect(r.status == .ok)
            #expect(r.text.contains("Added Raj: Asia/Kolkata, now IST UTC+05:30."))
            #expect(try t.store.people().map(\.zone) == ["Asia/Kolkata"])
            #expect(r.text.contains("<li data-row=\"Raj\""))
        }
    }

    @Test func anUnknownCityIsRefusedWithSuggestionsAndKeepsTheForm() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let r = try await client.execute(uri: "/people", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&name=Ann&city=new+yrok"))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("no time zone matches &#39;new yrok&#39;; did you mean America/New_York"))
            #expect(r.text.contains("value=\"new yrok\""))
            #expect(try t.store.people().isEmpty)
        }
    }

    @Test func theChosenMinuteShowsEveryonesClockAtIt() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try t.store.addPerson(Person(name: "Ann", zone: "America/New_York"), now: UTCTime(nanosecondsSinceEpoch: 0))
        try await t.loggedIn { client, headers, _ in
            // When the page is asked for 09:30 on 2026-07-01 in Brisbane
            let r = try await client.execute(uri: "/people?date=2026-07-01&minute=570", method: .get, headers: [.cookie: headers[.cookie]!])
            // Then New York (on EDT) shows 19:30 the day before, and the slider starts at 570
            #expect(r.text.contains("You: 2026-07-01 09:30 AEST (UTC+10:00), Australia/Brisbane"))
            #expect(r.text.contains("<span class=\"time num\">19:30</span> <span class=\"day\">-1d</span> <span class=\"zone\">EDT UTC-04:00</span>"))
            #expect(r.text.contains("value=\"570\""))
            #expect(r.text.contains("\"segments\":[[0,-840,\"EDT\",\"UTC-04:00\",true]]"))
        }
    }

    @Test func aMinuteOutsideTheDayIsRefusedButTheListStays() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try t.store.addPerson(Person(name: "Ann", zone: "America/New_York"), now: UTCTime(nanosecondsSinceEpoch: 0))
        try await t.loggedIn { client, headers, _ in
            let r = try await client.execute(uri: "/people?minute=1440", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(r.text.contains("the minute &#39;1440&#39; is not one of the day&#39;s: 0 to 1439"))
            #expect(r.text.contains("<tr data-name=\"Ann\">"))
        }
    }

    @Test func deselectingHidesSomeoneFromTheBoardAndRemovingDeletesThem() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try t.store.addPerson(Person(name: "Ann", zone: "America/New_York"), now: UTCTime(nanosecondsSinceEpoch: 0))
        try await t.loggedIn { client, headers, csrf in
            let hidden = try await client.execute(uri: "/people/select", method: .post, headers: headers,
                                                  body: ByteBuffer(string: "csrf=\(csrf)&name=ann&selected=0"))
            #expect(hidden.text.contains("Hiding ann."))
            #expect(!hidden.text.contains("<li data-row=\"Ann\""))
            #expect(try t.store.people().map(\.selected) == [false])
            let removed = try await client.execute(uri: "/people/remove", method: .post, headers: headers,
                                                   body: ByteBuffer(string: "csrf=\(csrf)&name=Ann"))
            #expect(removed.text.contains("Removed Ann."))
            #expect(try t.store.people().isEmpty)
        }
    }

    @Test func removingSomeoneUnknownNamesWhoIsKnown() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try t.store.addPerson(Person(name: "Ann", zone: "America/New_York"), now: UTCTime(nanosecondsSinceEpoch: 0))
        try await t.loggedIn { client, headers, csrf in
            let r = try await client.execute(uri: "/people/remove", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&name=Bob"))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("no person named &#39;Bob&#39;; your people: Ann"))
        }
    }
}
