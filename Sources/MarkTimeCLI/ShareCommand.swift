import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeStore

extension MarkTime {
    struct ShareCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Family and crew over MQTT, as OwnTracks does.",
            discussion: """
                With share.enabled, the daemon publishes the boat on owntracks/USER/DEVICE (share.user, share.device) \
                and puts the phones it sees on the clock. Link a phone to a member with
                  marktime member link Anna owntracks/anna/phone
                """,
            subcommands: [Status.self])

        struct Status: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "status",
                abstract: "The connection, last sent and received, the outbox, and the devices seen.")
            @OptionGroup var store: StoreOptions
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let s = try store.openForReading().shareStatus()
                switch format {
                case .json:
                    print(JSON.object([
                        ("connection", JSON.from(s.state?.connection ?? "no daemon is sharing")), ("connected", .bool(s.state?.connected ?? false)),
                        ("broker", JSON.from(s.state?.broker)), ("topic", JSON.from(s.state?.topic)),
                        ("last_sent", JSON.from(s.state?.lastSent?.iso8601)), ("last_received", JSON.from(s.state?.lastReceived?.iso8601)),
                        ("last_returned", JSON.from(s.state?.lastReturned?.iso8601)),
                        ("outbox", .int(Int64(s.outbox))),
                        ("seen", .array(s.seen.map { d in
                            .object([("topic", .string(d.topic)), ("name", JSON.from(d.name)), ("member", JSON.from(d.member)),
                                     ("last_seen", .string(d.lastSeen.iso8601)), ("messages", .int(Int64(d.messages)))])
                        })),
                    ]).render())
                case .table:
                    if let state = s.state {
                        print("connection     \(state.connection) (\(state.broker), as \(state.topic))")
                        print("last sent      \(state.lastSent?.iso8601 ?? "nothing yet")")
                        print("last received  \(state.lastReceived?.iso8601 ?? "nothing yet")")
                        print("last returned  \(state.lastReturned?.iso8601 ?? "nothing yet") (the boat's own, back from the broker)")
                    } else {
                        print("connection     no daemon is sharing: `marktime config set share.enabled true`, then start the daemon")
                    }
                    print("outbox         \(s.outbox) waiting")
                    guard !s.seen.isEmpty else { print("no devices seen yet"); return }
                    print(TextTable(header: ["TOPIC", "CARD", "MEMBER", "LAST SEEN", "MESSAGES"], rows: s.seen.map { d in
                        [d.topic, d.name ?? "", d.member ?? "not linked: `marktime member link NAME \(d.topic)`", d.lastSeen.iso8601, "\(d.messages)"]
                    }).render())
                }
            }
        }
    }
}
