import MarkTimeCore
import Testing

@Suite("Whether a fix can stand for a use")
struct FixUseTests {
    let boot = "boot-a"
    func fix(mode: Int = 3, at seconds: Int64, boot: String = "boot-a") -> Fix {
        Fix(position: try! Position(latitude: -27.3807, longitude: 153.3807), mode: mode, horizontalError: 5, time: nil,
            receivedAt: MonotonicInstant(bootID: boot, nanoseconds: seconds * 1_000_000_000))
    }
    func now(_ seconds: Int64) -> MonotonicInstant { MonotonicInstant(bootID: boot, nanoseconds: seconds * 1_000_000_000) }

    @Test("A 3D fix at the use's limit is usable; a second older is refused with its age")
    func ageLimit() {
        #expect(fix(at: 0).refusal(for: .sky, at: now(60)) == nil)
        #expect(fix(at: 0).refusal(for: .sky, at: now(61)) == .tooOld(age: 61, use: .sky))
    }

    @Test("A fix without a position (mode 1) and one from another boot are refused, whatever their age")
    func modeAndBoot() {
        #expect(fix(mode: 1, at: 10).refusal(for: .ship, at: now(10)) == .noPosition(mode: 1))
        #expect(fix(at: 10, boot: "boot-z").refusal(for: .ship, at: now(10)) == .otherBoot)
    }

    @Test("A flagged fix stands for nothing, though a sight keeps it with its flag; asked for --here, the refusal says why")
    func flagged() throws {
        // Given a current fix the daemon flagged
        var f = fix(at: 10)
        f.flag = "gps position moved 50.0 nm in 1 s"
        // Then no use takes it as the boat's, but it is current for a sight
        for use in [FixUse.sky, .ship, FixUse(maxAge: 30)] { #expect(f.refusal(for: use, at: now(11)) == .flagged("gps position moved 50.0 nm in 1 s")) }
        #expect(f.isCurrent(for: FixUse(maxAge: 30), at: now(11)))
        #expect(!f.isCurrent(for: FixUse(maxAge: 30), at: now(41)))
        let status = DaemonStatus(pid: 1, bootID: boot, startedAt: 0, heartbeat: 0, fix: f)
        #expect(status.usablePosition(for: .sky, now: now(11)) == nil)
        #expect(throws: InputError("--here needs a GPS fix that is not flagged, and the daemon's moved faster than the boat can (see `marktime status`); "
            + "give --position, or accept it with `marktime clock trust-gps`")) {
            try PositionChoice.currentFix.resolve(status, now: now(11), use: .sky, words: PositionChoice.Words(typed: "--position", here: "--here"))
        }
    }

    @Test("A sight takes its limit from sight.max_fix_age_s, a place from places.max_fix_age_s")
    func settings() throws {
        var s = Settings()
        s.set("sight.max_fix_age_s", .double(12))
        s.set("places.max_fix_age_s", .double(90))
        #expect(try FixUse.sight(s) == FixUse(maxAge: 12, key: "sight.max_fix_age_s"))
        #expect(try FixUse.place(s) == FixUse(maxAge: 90, key: "places.max_fix_age_s"))
    }

    @Test("The typed position or the current fix: one of the two, never both or neither")
    func positionChoice() throws {
        let words = PositionChoice.Words(typed: "--position", here: "--here")
        let status = DaemonStatus(pid: 1, bootID: boot, startedAt: 0, heartbeat: 0, fix: fix(at: 0))
        #expect(PositionChoice(typed: "", here: false) == .neither)
        #expect(try PositionChoice(typed: "27 22.84 S 153 22.84 E", here: false).resolve(nil, now: now(0), use: .sky, words: words)
                == Position(latitude: -(27 + 22.84 / 60), longitude: 153 + 22.84 / 60))
        #expect(try PositionChoice(typed: nil, here: true).resolve(status, now: now(30), use: .sky, words: words)
                == Position(latitude: -27.3807, longitude: 153.3807))
        #expect(throws: InputError("--here needs a fresh GPS fix, and the daemon's last one is 61 s old (the limit is 60 s); give --position")) {
            try PositionChoice(typed: nil, here: true).resolve(status, now: now(61), use: .sky, words: words)
        }
        #expect(throws: InputError("give --position or --here")) {
            try PositionChoice(typed: nil, here: false).resolve(status, now: now(0), use: .sky, words: words)
        }
        #expect(throws: InputError("give either --position or --here, not both")) {
            try PositionChoice(typed: "1 2", here: true).resolve(status, now: now(0), use: .sky, words: words)
        }
    }
}
