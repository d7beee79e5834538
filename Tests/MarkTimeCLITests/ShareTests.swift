import Foundation
@testable import MarkTimeDevices
import Synchronization
import RigSupport
import Testing

/// Sharing over a real Mosquitto broker, with `mosquitto_pub` and `mosquitto_sub` standing
/// in for the family's OwnTracks phones.
@Suite("Sharing over MQTT, as OwnTracks", .serialized, .tags(.mosquitto, .daemonProcess))
struct ShareTests {
    let cli = CLI()
    let now = Int64(Date().timeIntervalSince1970)

    init() throws {
        for (key, value) in [("sound.enabled", "false"), ("clock.trust_system", "false"), ("share.enabled", "true"),
                             ("share.user", "boat"), ("share.device", "pi"), ("share.tid", "BT")] {
            let r = try cli.run(["config", "set", key, value], storeFlag: false)
            precondition(r.status == 0, r.stderr)
        }
        for args in [["place", "add", "Home", "--position", "-27.3807 153.3807", "--radius", "150", "--kind", "home"],
                     ["member", "add", "Anna"], ["member", "link", "Anna", "owntracks/anna/phone"]] {
            let r = try cli.run(args)
            precondition(r.status == 0, r.stderr)
        }
    }

    func daemon(broker: Broker, gpsd: String = "127.0.0.1:1") throws -> DaemonProcess {
        _ = try cli.run(["config", "set", "share.broker", broker.address], storeFlag: false)
        return try DaemonProcess(cli: cli, arguments: ["--gpsd", gpsd, "--button", cli.folder + "/no-button"])
    }

    func anna() throws -> [String: Any] {
        let members = try cli.json(["member", "list"]) as? [[String: Any]] ?? []
        return members.first { $0["name"] as? String == "Anna" } ?? [:]
    }

    func share() throws -> [String: Any] { try cli.json(["share", "status"]) as? [String: Any] ?? [:] }

    func location(lat: Double, lon: Double, tst: Int64) -> String {
        "{\"_type\":\"location\",\"lat\":\(lat),\"lon\":\(lon),\"tst\":\(tst),\"acc\":12,\"tid\":\"AN\"}"
    }

    @Test func aPhoneAtHomeMovesItsMemberATransitionDoesAtOnceAndAStaleMessageDoesNot() throws {
        // Given the daemon connected to the broker
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let daemon = try daemon(broker: broker)
        defer { daemon.stop() }
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true }, "\(daemon.log)")

        // When Anna's phone sends three locations at Home (places.confirm_fixes is 3)
        for i in 0..<3 { try broker.publish("owntracks/anna/phone", location(lat: -27.3807, lon: 153.3807, tst: now - 60 + Int64(i))) }
        // Then Anna is at Home, and the log says so
        #expect(try eventually(within: 10) { try anna()["place"] as? String == "Home" }, "\(daemon.log)")
        #expect(daemon.log.contains("Anna entered Home"))

        // When her phone says she left Home
        try broker.publish("owntracks/anna/phone/event",
                           "{\"_type\":\"transition\",\"event\":\"leave\",\"desc\":\"Home\",\"lat\":-27.39,\"lon\":153.39,\"tst\":\(now - 30),\"acc\":20}")
        // Then she is nowhere at once, without three fixes
        #expect(try eventually(within: 10) { try anna()["place"] is NSNull })
        let left = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(now - 30))).dropLast()
        let reported = try anna()["reported_at"] as? String
        #expect(reported?.hasPrefix(left) == true, "\(reported ?? "none")")

        // When a message older than that arrives, three times, from Home
        for i in 0..<3 { try broker.publish("owntracks/anna/phone", location(lat: -27.3807, lon: 153.3807, tst: now - 50 + Int64(i))) }
        // And then a card for her phone, which shows the last three were handled too
        try broker.publish("owntracks/anna/phone/info", "{\"_type\":\"card\",\"name\":\"Anna's phone\"}")
        #expect(try eventually(within: 10) { (try share()["seen"] as? [[String: Any]])?.first?["name"] as? String == "Anna's phone" })
        // Then she is still nowhere
        #expect(try anna()["place"] is NSNull)
        #expect(try (share()["seen"] as? [[String: Any]])?.first?["messages"] as? Int == 8)
    }

    @Test("A friend's transition sent while the boat is offline arrives when it is back (a persistent session)")
    func aTransitionSentWhileTheBoatIsOfflineArrives() throws {
        // Given the daemon connected once (the broker now keeps its session), then stopped
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        var daemon: DaemonProcess? = try daemon(broker: broker)
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true }, "\(daemon!.log)")
        daemon?.stop()
        daemon = nil
        // When Anna's phone says she entered Home, from Home, while the boat is away
        try broker.publish("owntracks/anna/phone/event",
                           "{\"_type\":\"transition\",\"event\":\"enter\",\"desc\":\"Home\",\"lat\":-27.3807,\"lon\":153.3807,\"tst\":\(now - 20),\"acc\":20}")
        #expect(try anna()["place"] is NSNull)
        // And the daemon starts again
        let again = try self.daemon(broker: broker)
        defer { again.stop() }
        // Then the broker hands it the transition, and Anna is at Home
        #expect(try eventually(within: 20) { try anna()["place"] as? String == "Home" }, "\(again.log)")
        #expect(again.log.contains("Anna entered Home"), "\(again.log)")
    }

    @Test("An acknowledgement lost with the connection: what was in flight goes again before anything newer, so the retained copy is the newest")
    func aLostAcknowledgementKeepsTheOrder() throws {
        // Given the daemon connected through a proxy that can lose the broker's next PUBACK
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let proxy = try AckDroppingProxy(to: broker.port)
        defer { proxy.stop() }
        _ = try cli.run(["config", "set", "share.broker", "127.0.0.1:\(proxy.port)"], storeFlag: false)
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true && share()["outbox"] as? Int == 0 }, "\(daemon.log)")
        // When a place is added (new waypoints, retained), and the broker's acknowledgement of
        // them is lost with the connection
        proxy.arm()
        #expect(try cli.run(["place", "add", "Marina", "--position", "-27.45 153.2", "--radius", "300"]).status == 0)
        #expect(eventually(within: 20) { proxy.dropped == 1 })
        // And another place is added while the daemon reconnects
        #expect(try cli.run(["place", "add", "Reef", "--position", "-27.2 153.5", "--radius", "300"]).status == 0)
        #expect(try eventually(within: 60) { try share()["connected"] as? Bool == true && share()["outbox"] as? Int == 0 }, "\(daemon.log)")
        // Then a phone that connects now is given the newest waypoints, with both places
        let phone = try broker.subscribe("owntracks/boat/pi/waypoints")
        defer { _ = phone.stop() }
        #expect(eventually(within: 10) { !phone.messages.isEmpty }, "\(phone.output)")
        let retained = phone.messages.first?.payload ?? ""
        #expect(retained.contains("Marina") && retained.contains("Reef"), "\(retained)")
    }

    @Test func theBoatAppearsToFriendsWithItsLocationCardAndWaypoints() throws {
        // Given a subscriber standing in for a friend's phone, gpsd playing a log at Home, and the daemon
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let friend = try broker.subscribe("owntracks/boat/pi/#")
        defer { _ = friend.stop(SIGTERM) }
        let gps = try FakeGPS(folder: cli.folder)
        let daemon = try daemon(broker: broker, gpsd: gps.address)
        defer { daemon.stop() }

        // When the boat has had its fixes
        #expect(eventually(within: 30) { friend.messages.contains { $0.topic == "owntracks/boat/pi" } }, "\(daemon.log)\n\(friend.output)")

        // Then the friend has the card, the waypoints and the location, with OwnTracks' fields
        let byTopic = Dictionary(friend.messages.map { ($0.topic, $0.payload) }) { first, _ in first }
        #expect(byTopic["owntracks/boat/pi/info"] == "{\"_type\":\"card\",\"name\":\"boat\",\"tid\":\"BT\"}")
        let waypoints = try #require(byTopic["owntracks/boat/pi/waypoints"])
        #expect(waypoints.hasPrefix("{\"_type\":\"waypoints\",\"waypoints\":[{\"_type\":\"waypoint\",\"desc\":\"Home\",\"lat\":-27.3807,\"lon\":153.3807,\"rad\":150,\"tst\":"))
        let text = try #require(byTopic["owntracks/boat/pi"])
        let location = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(location["_type"] as? String == "location")
        #expect(location["tid"] as? String == "BT")
        #expect(location["t"] as? String == "p")
        #expect(abs((location["lat"] as? Double ?? 0) - -27.3807) < 0.001, "\(location)")
        #expect(abs((location["lon"] as? Double ?? 0) - 153.3807) < 0.001, "\(location)")
        #expect(String(describing: location["tst"] ?? "").hasPrefix("17419"), "the log is dated 2025-03-14: \(location)")
        #expect(Set(location.keys).isSuperset(of: ["_type", "lat", "lon", "tst", "tid", "t", "inregions"]), "\(location)")

        // When a friend's app asks for the boat's places and position
        let before = friend.messages.count
        try broker.publish("owntracks/boat/pi/cmd", #"{"_type":"cmd","action":"waypoints"}"#)
        try broker.publish("owntracks/boat/pi/cmd", #"{"_type":"cmd","action":"reportLocation"}"#)
        // Then both come again, the position with the trigger r (a response)
        #expect(eventually(within: 10) {
            let new = friend.messages.dropFirst(before)
            return new.contains { $0.topic == "owntracks/boat/pi/waypoints" } && new.contains { $0.topic == "owntracks/boat/pi" && $0.payload.contains(#""t":"r""#) }
        }, "\(friend.output)")
    }

    @Test func messagesWaitForTheBrokerAcrossAKilledDaemonAndArriveInOrder() throws {
        // Given a friend's phone with a persistent session on the broker, then the broker gone
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        _ = try broker.subscribe("owntracks/boat/pi/#", session: "friend").stop(SIGTERM)
        broker.stop()
        // And a daemon that queued its card and waypoints meanwhile
        var first: DaemonProcess? = try daemon(broker: broker)
        #expect(try eventually(within: 20) { try share()["outbox"] as? Int == 2 }, "\(first!.log)")
        #expect(try share()["connected"] as? Bool == false)

        // When the daemon is killed while they wait, a place is added, and the daemon starts again (queuing two more)
        _ = first?.child.stop(SIGKILL)
        first = nil
        #expect(try cli.run(["place", "add", "Marina", "--position", "-27.45 153.2", "--radius", "300", "--kind", "harbour"]).status == 0)
        let second = try daemon(broker: broker)
        defer { second.stop() }
        #expect(try eventually(within: 20) { try share()["outbox"] as? Int == 4 }, "\(second.log)")
        // And the broker comes back, and the friend's phone with it
        try broker.start()
        #expect(try eventually(within: 30) { try share()["outbox"] as? Int == 0 }, "\(second.log)")
        let friend = try broker.subscribe("owntracks/boat/pi/#", session: "friend")
        defer { _ = friend.stop(SIGTERM) }

        // Then all four reach the friend, in the order they were queued
        #expect(eventually(within: 10) { friend.messages.count >= 4 }, "\(friend.output)")
        let got = friend.messages.map { m in m.topic.split(separator: "/").last.map(String.init) ?? "" }
        #expect(got == ["info", "waypoints", "info", "waypoints"], "\(friend.output)")
        let waypoints = friend.messages.filter { $0.topic.hasSuffix("/waypoints") }.map(\.payload)
        #expect(waypoints.count == 2 && !waypoints[0].contains("Marina") && waypoints[1].contains("Marina"), "\(waypoints)")
    }

    @Test func theBrokerGoesAwayForAWhileAndWhatWasQueuedMeanwhileArrivesInOrder() throws {
        // Given a friend's persistent session, and the daemon connected and caught up
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        _ = try broker.subscribe("owntracks/boat/pi/#", session: "friend").stop(SIGTERM)
        let daemon = try daemon(broker: broker)
        defer { daemon.stop() }
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true && share()["outbox"] as? Int == 0 }, "\(daemon.log)")

        // When the broker stops, and two places are added meanwhile (each sends the waypoints again)
        broker.stop()
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == false }, "\(daemon.log)")
        for (name, position) in [("Marina", "-27.45 153.2"), ("Reef", "-27.1 153.5")] {
            #expect(try cli.run(["place", "add", name, "--position", position, "--radius", "300"]).status == 0)
        }
        #expect(try eventually(within: 10) { try share()["outbox"] as? Int == 2 }, "\(daemon.log)")
        // And the broker comes back, then the friend
        try broker.start()
        #expect(try eventually(within: 90) { try share()["outbox"] as? Int == 0 }, "\(daemon.log)")
        let friend = try broker.subscribe("owntracks/boat/pi/#", session: "friend")
        defer { _ = friend.stop(SIGTERM) }

        // Then the friend has everything, the waypoints last and in the order the places came
        #expect(eventually(within: 10) { friend.messages.count >= 4 }, "\(friend.output)")
        let waypoints = friend.messages.filter { $0.topic.hasSuffix("/waypoints") }.map(\.payload)
        #expect(waypoints.count == 3, "\(friend.output)")
        #expect(waypoints.map { ($0.contains("Marina"), $0.contains("Reef")) }.map { [$0.0, $0.1] } == [[false, false], [true, false], [true, true]])
    }

    @Test("A retained location the broker delivers again after each restart does not count as a new report")
    func aRetainedRedeliveryIsNotNew() throws {
        // Given Anna at Home from three retained locations
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        var first: DaemonProcess? = try daemon(broker: broker)
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true }, "\(first!.log)")
        for i in 0..<3 { try broker.publish("owntracks/anna/phone", location(lat: -27.3807, lon: 153.3807, tst: now - 60 + Int64(i)), retain: true) }
        #expect(try eventually(within: 10) { try anna()["place"] as? String == "Home" }, "\(first!.log)")
        let reported = try anna()["reported_at"] as? String
        first?.stop()
        first = nil
        // When the daemon starts twice more, and each time the broker delivers the retained location again
        for _ in 0..<2 {
            let seen = try (share()["seen"] as? [[String: Any]])?.first?["messages"] as? Int ?? 0
            let again = try daemon(broker: broker)
            #expect(try eventually(within: 30) { try ((share()["seen"] as? [[String: Any]])?.first?["messages"] as? Int ?? 0) > seen }, "\(again.log)")
            again.stop()
            // Then it changes nothing: no second "entered Home", the same report time
            #expect(!again.log.contains("Anna entered Home"), "\(again.log)")
            #expect(try anna()["reported_at"] as? String == reported)
        }
    }

    @Test("Twenty reportLocation commands at once are answered once, and the rest logged once")
    func commandsAreRateLimited() throws {
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let gps = try FakeGPS(folder: cli.folder)
        let daemon = try daemon(broker: broker, gpsd: gps.address)
        defer { daemon.stop() }
        let friend = try broker.subscribe("owntracks/boat/pi")
        defer { _ = friend.stop(SIGTERM) }
        #expect(eventually(within: 30) { friend.messages.contains { $0.payload.contains(#""_type":"location""#) } }, "\(daemon.log)")
        // When a friend's app sends twenty commands in one go
        let lines = String(repeating: #"{"_type":"cmd","action":"reportLocation"}"# + "\n", count: 20)
        let r = try runCommand("/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", "owntracks/boat/pi/cmd", "-l"],
                               environment: ["PATH": "/usr/bin:/bin"], input: lines)
        #expect(r.status == 0, "\(r.stderr)")
        // Then one is answered (trigger r), and the ignored ones give one log line
        #expect(eventually(within: 20) { daemon.log.contains("sharing: command ignored, one per 10 s is answered") }, "\(daemon.log)")
        #expect(eventually(within: 10) { friend.messages.contains { $0.payload.contains(#""t":"r""#) } }, "\(friend.output)")
        #expect(friend.messages.filter { $0.payload.contains(#""t":"r""#) }.count == 1, "\(friend.output)")
        #expect(daemon.log.components(separatedBy: "sharing: command ignored").count == 2, "\(daemon.log)")
    }

    @Test("A captive portal answering on the broker's address, then the broker: sharing comes back by itself")
    func aCaptivePortalThenTheBroker() throws {
        // Given a marina's captive portal answering every connection to the broker's port with a web page
        let port = try FakeGPS.freePort()
        let portal = try FakePortal(port: port)
        let broker = try Broker(folder: cli.folder, port: port)
        let daemon = try daemon(broker: broker)
        defer { daemon.stop() }
        // When the daemon has tried it (a protocol error, which once ended sharing for good)
        #expect(eventually(within: 30) { portal.connections >= 2 }, "\(daemon.log)")
        #expect(try share()["connected"] as? Bool == false)
        // And the portal gives way to the broker
        portal.stop()
        try broker.start()
        // Then sharing connects by itself and empties its outbox
        #expect(try eventually(within: 90) { try share()["connected"] as? Bool == true && share()["outbox"] as? Int == 0 }, "\(daemon.log)")
    }

    @Test("A broker serving an expired certificate, then a renewed one: sharing comes back by itself")
    func anExpiredCertificateThenARenewedOne() throws {
        // Given a TLS broker whose certificate has expired, and the daemon trying it
        let (tls, daemon) = try daemonOverTLS(expired: true)
        defer { daemon.stop(); withExtendedLifetime(tls) {} }
        let expired = "disconnected: TLS: the broker's certificate at localhost:\(tls.broker.port) has expired: renew it on the broker"
        #expect(try eventually(within: 30) { try share()["connection"] as? String == expired }, "\(daemon.log)")
        #expect(try eventually(within: 10) { try share()["outbox"] as? Int == 2 }, "\(daemon.log)")
        // When the broker's owner renews it and restarts the broker
        try tls.renew()
        // Then sharing connects by itself, without a restart of the daemon, and empties its outbox
        #expect(try eventually(within: 90) { try share()["connected"] as? Bool == true && share()["outbox"] as? Int == 0 }, "\(daemon.log)")
        #expect(daemon.child.isRunning)
    }

    @Test("A killed daemon's will does not take the place of the boat's retained position")
    func theWillNeverHidesTheBoat() throws {
        // Given the daemon sharing the boat's position from gpsd
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let gps = try FakeGPS(folder: cli.folder)
        let daemon = try daemon(broker: broker, gpsd: gps.address)
        let watcher = try broker.subscribe("owntracks/boat/pi")
        defer { _ = watcher.stop(SIGTERM) }
        #expect(eventually(within: 30) { watcher.messages.contains { $0.payload.contains(#""_type":"location""#) } }, "\(daemon.log)")
        // When it is killed (the broker then sends its will)
        daemon.child.stop(SIGKILL)
        #expect(eventually(within: 10) { watcher.messages.contains { $0.payload.contains(#""_type":"lwt""#) } }, "\(watcher.output)")
        // Then a phone connecting afterwards is given the boat's position, not the will
        let late = try broker.subscribe("owntracks/boat/pi")
        defer { _ = late.stop(SIGTERM) }
        #expect(eventually(within: 10) { !late.messages.isEmpty }, "\(late.output)")
        #expect(late.messages.first?.payload.contains(#""_type":"location""#) == true, "\(late.output)")
    }

    @Test func aWrongPasswordOverTLSIsRefusedAndShownTheRightOneConnects() throws {
        // Given a broker with TLS from a CA made here, accounts, and OwnTracks' ACL pattern
        let tls = try TLSBroker(folder: cli.folder, user: "boat", password: "right horse")
        try tls.broker.start()
        let secret = cli.folder + "/mqtt-password"
        try "wrong horse\n".write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0o640)
        for (key, value) in [("share.tls_ca", tls.ca), ("share.username", "boat"), ("share.password_file", secret)] {
            #expect(try cli.run(["config", "set", key, value], storeFlag: false).status == 0)
        }
        _ = try cli.run(["config", "set", "share.broker", "localhost:\(tls.broker.port)"], storeFlag: false)
        var daemon: DaemonProcess? = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        // When it connects with the wrong password
        // Then share status says the broker refused it, and nothing left the outbox
        #expect(try eventually(within: 20) { (try share()["connection"] as? String)?.hasPrefix("refused: ") == true }, "\(daemon!.log)")
        #expect(try share()["connection"] as? String == "refused: Connection Refused: not authorised.", "\(daemon!.log)\n\(tls.broker.child?.output ?? "")")
        #expect(try share()["outbox"] as? Int == 2)
        daemon?.stop()
        daemon = nil

        // When the password file is right
        try "right horse\n".write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0o640)
        let again = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        defer { again.stop() }
        // Then it connects over TLS and its messages go out
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true && share()["outbox"] as? Int == 0 }, "\(again.log)")
    }

    /// The TLS faults a boat meets, each with the sentence `share status` and the log must give.
    enum TLSFault: String, CaseIterable, CustomTestStringConvertible {
        case wrongCA, expired, otherHost, tlsToPlainPort, plainToTLSPort
        var testDescription: String { rawValue }
    }

    @Test("Each TLS failure says what is wrong, in share status and the log", arguments: TLSFault.allCases)
    func aTLSFailureIsNamed(_ fault: TLSFault) throws {
        // Given a broker (TLS with a CA made here, unless plain), and the boat's TLS settings
        let tls = try TLSBroker(folder: cli.folder, user: "boat", password: "horse", serverName: fault == .otherHost ? "elsewhere.example" : nil,
                                expired: fault == .expired)
        let plain = try Broker(folder: cli.folder)
        let port = fault == .tlsToPlainPort ? plain.port : tls.broker.port
        try fault == .tlsToPlainPort ? plain.start() : tls.broker.start()
        let secret = try passwordFile("horse")
        let ca = fault == .wrongCA ? try unrelatedCA(in: cli.folder) : tls.ca
        var settings = [("share.username", "boat"), ("share.password_file", secret), ("share.broker", "localhost:\(port)")]
        if fault != .plainToTLSPort { settings.append(("share.tls_ca", ca)) }
        for (key, value) in settings {
            #expect(try cli.run(["config", "set", key, value], storeFlag: false).status == 0)
        }
        // When the daemon connects
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        // Then share status and the log say what is wrong and what to do, and nothing left the outbox
        let expected = switch fault {
        case .wrongCA: "TLS: the broker's certificate at localhost:\(port) is not signed by the CA in share.tls_ca (\(ca)): give the CA that signed it"
        case .expired: "TLS: the broker's certificate at localhost:\(port) has expired: renew it on the broker"
        case .otherHost: "TLS: the broker's certificate is not for localhost: set share.broker to a name the certificate carries"
        case .tlsToPlainPort:
            "TLS: localhost:\(port) does not answer in TLS: it looks like the broker's plain port (usually 1883); its TLS port is usually 8883"
        case .plainToTLSPort: "localhost:\(port) wants TLS: set share.tls_ca to the broker's CA certificate, or use its plain port (usually 1883)"
        }
        #expect(try eventually(within: 30) { try share()["connection"] as? String == "disconnected: " + expected },
                "\(daemon.log)")
        #expect(daemon.log.contains(expected), "\(daemon.log)")
        // (the start's messages go in through the daemon's writer, which may commit them after the status)
        #expect(try eventually(within: 10) { try share()["outbox"] as? Int == 2 }, "\(daemon.log)")
    }

    /// A password file only its owner and group may read, holding `password`.
    func passwordFile(_ password: String) throws -> String {
        let path = cli.folder + "/mqtt-password"
        try (password + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o640)
        return path
    }

    /// A TLS broker with OwnTracks' ACL and the account boat, and the daemon connecting to
    /// it as boat, publishing under `share.user` = `user` when given. The broker stops when
    /// the caller lets go of it.
    func daemonOverTLS(user: String? = nil, expired: Bool = false) throws -> (broker: TLSBroker, daemon: DaemonProcess) {
        let tls = try TLSBroker(folder: cli.folder, user: "boat", password: "horse", expired: expired)
        try tls.broker.start()
        var settings = [("share.tls_ca", tls.ca), ("share.username", "boat"), ("share.password_file", try passwordFile("horse")),
                        ("share.broker", "localhost:\(tls.broker.port)")]
        if let user { settings.append(("share.user", user)) }
        for (key, value) in settings {
            #expect(try cli.run(["config", "set", key, value], storeFlag: false).status == 0)
        }
        return (tls, try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"]))
    }

    @Test("A broker whose ACL drops the boat's messages (acknowledging them) is named in share status and the log")
    func anACLThatDropsTheBoatIsNamed() throws {
        // Given a broker with OwnTracks' ACL (each account writes only under its own name), and
        // the boat's topic under another name than its account's
        // When the daemon connects and publishes its card, which the broker acknowledges
        let (tls, daemon) = try daemonOverTLS(user: "yacht")
        defer { daemon.stop(); withExtendedLifetime(tls) {} }
        #expect(try eventually(within: 30) { try share()["outbox"] as? Int == 0 }, "\(daemon.log)")
        // Then, once it has not come back, share status and the log say the broker drops it, and what to do
        let expected = "connected, but the broker drops what the boat publishes: its ACL does not let account boat write (or read) "
            + "owntracks/yacht/pi; set share.user and share.device to a topic the account may use"
        #expect(try eventually(within: 90) { try share()["connection"] as? String == expected }, "\(daemon.log)")
        #expect(daemon.log.contains("sharing: the broker acknowledges the boat's messages but drops them (its ACL); nobody sees the boat"),
                "\(daemon.log)")
    }

    @Test("Where the broker lets the boat publish, its own messages come back and nothing is flagged")
    func aBrokerThatKeepsTheBoatIsNotFlagged() throws {
        // Given the same broker, and the boat's topic under its own account's name
        let (tls, daemon) = try daemonOverTLS()
        defer { daemon.stop(); withExtendedLifetime(tls) {} }
        // When its card has been acknowledged
        #expect(try eventually(within: 30) { try share()["outbox"] as? Int == 0 }, "\(daemon.log)")
        // Then it comes back from the broker, which share status shows, and nothing is flagged
        #expect(try eventually(within: 30) { try share()["last_returned"] is String }, "\(daemon.log)")
        #expect(try share()["connection"] as? String == "connected", "\(daemon.log)")
        #expect(!daemon.log.contains("drops them"), "\(daemon.log)")
    }

    @Test func aPasswordFileOthersCanReadStopsSharingWithTheFix() throws {
        // Given a password file every user may read
        let secret = cli.folder + "/mqtt-password"
        try "horse\n".write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0o644)
        _ = try cli.run(["config", "set", "share.password_file", secret], storeFlag: false)
        // When the daemon starts
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        // Then it records sights as ever, but does not share, saying why and what to do
        #expect(eventually(within: 20) { daemon.log.contains("marktime daemon started") }, "\(daemon.log)")
        #expect(daemon.log.contains("sharing is off: share.password_file \(secret) is readable by every user: `chmod o-r \(secret)`, then start the daemon again"), "\(daemon.log)")
        #expect(daemon.child.isRunning)
        #expect(try cli.run(["mark"]).status == 0)
        #expect(try share()["connection"] as? String == "no daemon is sharing")
    }

    @Test func aBurstOfAThousandMessagesFromSixPhonesLeavesEachMemberAtItsPlace() throws {
        // Given six members linked to six phones, and a place for each
        let names = ["Anna", "Ben", "Cleo", "Dev", "Eli", "Fay"]
        for (i, name) in names.enumerated() where i > 0 {
            #expect(try cli.run(["member", "add", name]).status == 0)
            #expect(try cli.run(["member", "link", name, "owntracks/\(name.lowercased())/phone"]).status == 0)
            #expect(try cli.run(["place", "add", "P\(i)", "--position", "\(-27.0 - Double(i) / 10) 153", "--radius", "200"]).status == 0)
        }
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let daemon = try daemon(broker: broker)
        defer { daemon.stop() }
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true }, "\(daemon.log)")

        // When each phone sends its share of 1,000 locations, wandering, then ending at its place
        var sent = 0
        for (i, name) in names.enumerated() {
            let count = i < 4 ? 167 : 166
            let (lat, lon) = i == 0 ? (-27.3807, 153.3807) : (-27.0 - Double(i) / 10, 153.0)
            let lines = (0..<count).map { k in
                let away = k < count - 5 ? Double(k % 7) * 0.01 + 0.05 : 0
                return location(lat: lat + away, lon: lon, tst: now - 2000 + Int64(k))
            }
            sent += lines.count
            let r = try runCommand("/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-l", "-t", "owntracks/\(name.lowercased())/phone"],
                                   environment: ["PATH": "/usr/bin:/bin"], input: lines.joined(separator: "\n") + "\n")
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(sent == 1000)
        // Then all are applied, and every member is at its own place
        #expect(try eventually(within: 60) { (try share()["seen"] as? [[String: Any]])?.compactMap { $0["messages"] as? Int }.reduce(0, +) == 1000 })
        let members = try cli.json(["member", "list"]) as? [[String: Any]] ?? []
        #expect(members.map { $0["place"] as? String } == ["Home", "P1", "P2", "P3", "P4", "P5"], "\(members)")
    }

    @Test("During a burst of 5,000 friends' messages, the CLI's anchor, place and edit commands each succeed at the first try")
    func theCLIsWritesGetTheirTurnDuringABurst() throws {
        // Given the daemon connected, and 5,000 of Anna's locations queued to arrive at once
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let daemon = try daemon(broker: broker)
        defer { daemon.stop() }
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true }, "\(daemon.log)")
        #expect(try cli.run(["mark"]).status == 0)
        let total = 5_000
        let lines = (0..<total).map { k in location(lat: -27.3 - Double(k % 50) * 0.001, lon: 153.0, tst: now - 30_000 + Int64(k)) }
        let file = cli.folder + "/burst.txt"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let seen = { ((try? share()["seen"] as? [[String: Any]]) ?? nil)?.compactMap { $0["messages"] as? Int }.reduce(0, +) ?? 0 }

        // When, while they arrive, the CLI drops and lifts the anchor, adds places and edits a sight
        let publisher = try Child("/bin/sh", ["-c", "exec /usr/bin/mosquitto_pub -p \(broker.port) -q 0 -l -t owntracks/anna/phone <\(file)"],
                                  log: cli.folder + "/burst-pub.log", environment: ["PATH": "/usr/bin:/bin"])
        defer { _ = publisher.stop() }
        #expect(eventually(within: 60) { seen() > 0 }, "\(daemon.log)")
        var commands: [(args: [String], status: Int32, stderr: String, seenAfter: Int)] = []
        for round in 1...3 {
            for args in [["anchor", "drop", "--position", "-27.3807 153.3807", "--radius", "60"], ["anchor", "lift"],
                         ["place", "add", "Burst \(round)", "--position", "-27.\(round) 153.1", "--radius", "100"],
                         ["sight", "edit", "1", "--note", "round \(round)"]] {
                let r = try cli.run(args)
                commands.append((args, r.status, r.stderr, seen()))
            }
        }

        // Then every command succeeded at its first try, at least one of them while the burst was still arriving
        for c in commands { #expect(c.status == 0, "marktime \(c.args.joined(separator: " ")): \(c.stderr)") }
        #expect(commands.contains { $0.seenAfter < total }, "the burst was over before the commands: \(commands.map(\.seenAfter))")
        #expect(try eventually(within: 120) { seen() == total }, "\(seen()) of \(total) applied")
    }

    @Test func malformedPayloadsAreDroppedWithALogLineAndChangeNothing() throws {
        // Given the daemon connected
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let daemon = try daemon(broker: broker)
        defer { daemon.stop() }
        #expect(try eventually(within: 20) { try share()["connected"] as? Bool == true }, "\(daemon.log)")
        let before = try anna()

        // When 26 kinds of bad payload arrive, each on its own linked or unlinked topic
        let bad = [
            "not json", "[]", "42", "\"text\"", "{}", "{\"lat\":1}", "{\"_type\":7}", "{\"_type\":\"teleport\"}",
            "{\"_type\":\"location\"}", "{\"_type\":\"location\",\"lat\":\"x\",\"lon\":1,\"tst\":\(now)}",
            "{\"_type\":\"location\",\"lat\":91,\"lon\":1,\"tst\":\(now)}", "{\"_type\":\"location\",\"lat\":1,\"lon\":181,\"tst\":\(now)}",
            "{\"_type\":\"location\",\"lat\":1e999,\"lon\":1,\"tst\":\(now)}", "{\"_type\":\"location\",\"lat\":true,\"lon\":1,\"tst\":\(now)}",
            "{\"_type\":\"location\",\"lat\":1,\"lon\":1}", "{\"_type\":\"location\",\"lat\":1,\"lon\":1,\"tst\":-5}",
            "{\"_type\":\"location\",\"lat\":1,\"lon\":1,\"tst\":99999999999}", "{\"_type\":\"location\",\"lat\":1,\"lon\":1,\"tst\":\(now),\"acc\":-3}",
            "{\"_type\":\"location\",\"lat\":1,\"lon\":1,\"tst\":\(now),\"acc\":\"far\"}", "{\"_type\":\"location\",\"lat\":null,\"lon\":1,\"tst\":\(now)}",
            "{\"_type\":\"location\",\"lat\":1,\"lon\":1,\"tst\":\(now + 3 * 86400)}", "{\"_type\":\"card\",\"name\":\"Ben\"}",
            "{\"_type\":\"location\",\"lat\":1,\"lon\":1,\"tst\":\(now)", String(repeating: "x", count: 70_000),
            "{\"_type\":\"location\",\"lat\":[1],\"lon\":1,\"tst\":\(now)}", "{\"_type\":\"location\",\"lat\":1,\"lon\":{},\"tst\":\(now)}",
        ]
        #expect(bad.count == 26)
        for (i, payload) in bad.enumerated() { try broker.publish(i == 0 ? "owntracks/anna/phone" : "owntracks/bad\(i)/phone", payload) }
        // And one good card after them, to know they were all read
        try broker.publish("owntracks/ben/phone/info", "{\"_type\":\"card\",\"name\":\"Ben\"}")
        #expect(try eventually(within: 10) { (try share()["seen"] as? [[String: Any]])?.contains { $0["name"] as? String == "Ben" } == true })

        // Then each was logged once, nothing was seen from them, and Anna did not move
        #expect(daemon.log.components(separatedBy: "sharing: message dropped").count - 1 == 26, "\(daemon.log)")
        #expect(try (share()["seen"] as? [[String: Any]])?.map { $0["topic"] as? String } == ["owntracks/ben/phone"])
        #expect(try anna()["place"] is NSNull && anna()["reported_at"] is NSNull && before["reported_at"] is NSNull)
    }
}

/// A marina's captive portal: whatever connects to its port gets a web page and is closed.
final class FakePortal: @unchecked Sendable {
    let fd: Int32
    private let count = Mutex(0)
    var connections: Int { count.withLock { $0 } }

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = port.bigEndian
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(fd, 8) == 0 }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                count.withLock { $0 += 1 }
                let page = Array("HTTP/1.1 302 Found\r\nLocation: http://portal.marina/\r\nContent-Length: 0\r\n\r\n".utf8)
                _ = page.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}


/// A TCP proxy between the daemon and the broker that, once armed, drops the broker's next
/// PUBACK and then cuts the connection: the broker has the message, the daemon never
/// hears so.
final class AckDroppingProxy: @unchecked Sendable {
    let fd: Int32
    let port: UInt16
    let upstream: UInt16
    private let armed = Mutex(false)
    private let droppedCount = Mutex(0)
    var dropped: Int { droppedCount.withLock { $0 } }

    init(to upstream: UInt16) throws {
        self.upstream = upstream
        port = try FakeGPS.freePort()
        fd = try Self.listen(port)
        Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                guard let server = try? Self.connect(upstream) else { close(client); continue }
                Thread { Self.copy(from: client, to: server) }.start()
                Thread { [self] in relay(from: server, to: client) }.start()
            }
        }.start()
    }

    /// Drop the next PUBACK, then cut the connection.
    func arm() { armed.withLock { $0 = true } }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    /// The broker's side, packet by packet: MQTT's fixed header is a type byte and a
    /// variable-length remaining length.
    private func relay(from server: Int32, to client: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        defer { shutdown(server, Int32(SHUT_RDWR)); shutdown(client, Int32(SHUT_RDWR)); close(server); close(client) }
        while true {
            let n = read(server, &chunk, chunk.count)
            guard n > 0 else { return }
            buffer += chunk[..<n]
            while let length = Self.packetLength(buffer) {
                let packet = Array(buffer[..<length])
                buffer.removeFirst(length)
                if packet[0] >> 4 == 4, armed.withLock({ a in defer { a = false }; return a }) {
                    droppedCount.withLock { $0 += 1 }
                    return
                }
                guard packet.withUnsafeBytes({ write(client, $0.baseAddress, $0.count) }) == packet.count else { return }
            }
        }
    }

    /// The length of the first whole packet in `bytes`, or nil until it has all arrived.
    static func packetLength(_ bytes: [UInt8]) -> Int? {
        var remaining = 0, multiplier = 1, i = 1
        while true {
            guard i < bytes.count else { return nil }
            remaining += Int(bytes[i] & 0x7f) * multiplier
            multiplier *= 128
            i += 1
            if bytes[i - 1] & 0x80 == 0 { break }
        }
        return bytes.count >= i + remaining ? i + remaining : nil
    }

    static func copy(from a: Int32, to b: Int32) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(a, &chunk, chunk.count)
            guard n > 0, chunk.withUnsafeBytes({ write(b, $0.baseAddress, n) }) == n else { break }
        }
        shutdown(b, Int32(SHUT_RDWR))
        shutdown(a, Int32(SHUT_RDWR))
    }

    static func address(_ port: UInt16) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = port.bigEndian
        return addr
    }

    static func listen(_ port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = address(port)
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && Glibc.listen(fd, 8) == 0 }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        return fd
    }

    static func connect(_ port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = address(port)
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard ok else { close(fd); throw POSIXError(.ECONNREFUSED) }
        return fd
    }
}

/// How deep on its thread's stack the caller runs: the address of a local of this frame.
@inline(never) func stackDepth() -> UInt {
    var local = 0
    return withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
}

/// The MQTT client's plumbing: how its events reach the share service's callback.
@Suite("The MQTT client's events reach the share service unchanged")
struct MQTTEventTests {
    /// One event of each kind the share service is handed.
    static let events: [TransportEvent] = [
        .connected, .acknowledged(7), .disconnected("gone"), .refused("not authorised"),
        .message(topic: "owntracks/anna/phone", payload: Array(#"{"_type":"location","lat":1,"lon":1,"tst":1795435200}"#.utf8)),
        .message(topic: "owntracks/anna/phone", payload: Array("not json".utf8)),
        .message(topic: "owntracks/anna/phone", payload: []),
        .message(topic: "owntracks/anna/phone", payload: Array(#"{"_type":"lwt","tst":1795435200}"#.utf8)),
        .message(topic: "owntracks/stranger/phone", payload: Array(#"{"_type":"location","lat":2,"lon":2,"tst":1795435200}"#.utf8)),
    ]

    @Test("Each of 1,800 events reaches the callback at the same stack depth: handing one on does not wrap the callback")
    func theCallbackIsTheSameAtEveryEvent() {
        // Given the client's sink with a callback that notes how deep it runs, and what it got
        let sink = EventSink()
        let seen = Mutex<(depths: Set<UInt>, count: Int)>(([], 0))
        sink.set { _ in
            let depth = stackDepth()
            seen.withLock { ($0.depths.insert(depth), $0.count += 1) }
        }
        // When 200 events of each kind go through it, from one place in one loop
        for _ in 0..<200 { for event in Self.events { sink.emit(event) } }
        // Then every one reached it, all at one depth (it was two frames deeper at each event)
        #expect(seen.withLock { $0.count } == 1_800)
        #expect(seen.withLock { $0.depths.count } == 1)
    }

    @Test("After stop, events reach nothing")
    func aClearedSinkCallsNothing() {
        // Given a sink whose callback counts, cleared after one event
        let sink = EventSink()
        let count = Mutex(0)
        sink.set { _ in count.withLock { $0 += 1 } }
        sink.emit(.connected)
        sink.clear()
        // When another event comes
        sink.emit(.connected)
        // Then only the first was counted
        #expect(count.withLock { $0 } == 1)
    }

    @Test("A server that takes the connection and never answers CONNECT is named as such, not as an unknown error")
    func aServerThatNeverAnswersConnectIsNamed() throws {
        // Given a listening socket nobody accepts from: the kernel takes the TCP connection, nothing answers
        let port = try FakeGPS.freePort()
        let silent = try AckDroppingProxy.listen(port)
        defer { close(silent) }
        // When the client connects to it, with MQTT's shortest keepalive (5 s)
        let events = Mutex<[TransportEvent]>([])
        let client = MosquittoClient(.init(host: "127.0.0.1", port: Int(port), clientID: "marktime-test-silent", subscriptions: [], keepalive: 5))
        try client.start { event in events.withLock { $0.append(event) } }
        defer { client.stop() }
        // Then, once the keepalive has passed, the disconnection says what happened and what to check
        #expect(eventually(within: 30) { !events.withLock { $0 }.isEmpty })
        #expect(events.withLock { $0.first } == .disconnected(
            "127.0.0.1:\(port) took the connection but never answered MQTT's CONNECT (5 s): it is not an MQTT broker, or a stuck one; "
                + "check share.broker (MQTT is usually port 1883, 8883 with TLS)"))
    }

    @Test("Over a real Mosquitto, 1,000 QoS 1 messages of five kinds each reach the callback at the same stack depth", .tags(.mosquitto))
    func messagesThroughABrokerLeaveTheCallbackAsItWas() throws {
        // Given a broker, a client subscribed as the boat is, and a second one standing in for phones
        let cli = CLI()
        let broker = try Broker(folder: cli.folder)
        try broker.start()
        let seen = Mutex<(depths: Set<UInt>, messages: Int, probes: Int, acknowledged: Int, connected: Int)>(([], 0, 0, 0, 0))
        let boat = MosquittoClient(.init(host: "127.0.0.1", port: Int(broker.port), clientID: "marktime-test-boat",
                                         subscriptions: ["owntracks/+/+", "owntracks/+/+/event", "owntracks/+/+/info"]))
        try boat.start { event in
            let depth = stackDepth()
            seen.withLock { s in
                switch event {
                case .message(let topic, _, _, _) where topic == "owntracks/probe/phone": s.probes += 1
                case .message: (s.messages, s.depths) = (s.messages + 1, s.depths.union([depth]))
                case .connected: s.connected += 1
                default: break
                }
            }
        }
        defer { boat.stop() }
        let phones = MosquittoClient(.init(host: "127.0.0.1", port: Int(broker.port), clientID: "marktime-test-phones", subscriptions: [],
                                           will: ("owntracks/anna/phone", Array(#"{"_type":"lwt","tst":1795435200}"#.utf8))))
        try phones.start { event in
            seen.withLock { s in
                if case .acknowledged = event { s.acknowledged += 1 }
                if case .connected = event { s.connected += 1 }
            }
        }
        defer { phones.stop() }
        // The boat subscribes once the broker accepted it: a probe goes until one comes back
        #expect(eventually(within: 20) { seen.withLock { $0.connected } == 2 })
        #expect(eventually(within: 20) {
            _ = try? phones.publish(topic: "owntracks/probe/phone", payload: [], retain: false)
            return seen.withLock { $0.probes } > 0
        })

        // When the phones send 200 each of: a linked member's location, junk, an empty
        // message, a will, and a stranger's location, at QoS 1
        let kinds: [(topic: String, payload: String)] = [
            ("owntracks/anna/phone", #"{"_type":"location","lat":-27.38,"lon":153.38,"tst":1795435200,"acc":12}"#),
            ("owntracks/anna/phone", "not json"),
            ("owntracks/anna/phone", ""),
            ("owntracks/anna/phone", #"{"_type":"lwt","tst":1795435200}"#),
            ("owntracks/stranger/phone", #"{"_type":"location","lat":1,"lon":1,"tst":1795435200}"#),
        ]
        for _ in 0..<200 { for k in kinds { _ = try phones.publish(topic: k.topic, payload: Array(k.payload.utf8), retain: false) } }
        // Then the broker acknowledged all of them, and the boat got all of them
        #expect(eventually(within: 30) { seen.withLock { $0.messages == 1_000 && $0.acknowledged >= 1_000 + $0.probes } },
                "\(seen.withLock { ($0.messages, $0.acknowledged) })")
        // All at one depth on the client's thread: libmosquitto calls back from one place
        #expect(seen.withLock { $0.depths.count } == 1, "\(seen.withLock { $0.depths.count }) depths")
    }
}
