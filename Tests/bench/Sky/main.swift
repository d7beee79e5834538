import Foundation
import MarkTimeCore
import MarkTimeSky

// `marktime-sky-bench`: times the sky's work on this machine and prints the figures
// (Tests/bench/sky builds it in release and runs it). No targets: figures only.

func seconds(_ work: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func microseconds(_ total: Double, _ n: Int) -> String { String(format: "%.1f µs", total / Double(n) * 1e6) }

/// A practice sight of `body` taken at `truth`, reduced from a DR 20′ away; nil below 10°.
func sight(_ body: Body, _ utc: UTCTime, _ truth: Position) -> Sight? {
    guard let time = SkyTime(utc) else { return nil }
    let e = Almanac.entry(body, at: time)
    guard Computed(gha: e.gha, declination: e.declination, latitude: truth.latitude, longitude: truth.longitude).altitude > 10 else { return nil }
    let limb: Limb = body == .sun || body == .moon ? .lower : .center
    return Sight.practice(body, at: utc, from: truth, reading: SextantReading(hs: 0, indexError: -1.2, eyeHeight: 2.5, limb: limb),
                          dr: try? Position(latitude: truth.latitude + 0.2, longitude: truth.longitude - 0.25))
}

// 10,000 sights of every body over the almanac's years, from places across the globe.
var generator = SystemRandomNumberGenerator()
var sights: [Sight] = []
while sights.count < 10_000 {
    let utc = UTCTime(wholeSeconds: Int64.random(in: 631_152_000...2_871_763_200, using: &generator)) // 1990–2060
    let truth = try! Position(latitude: Double.random(in: -60...60, using: &generator), longitude: Double.random(in: -180..<180, using: &generator))
    if let s = sight(Body.all.randomElement(using: &generator)!, utc, truth) { sights.append(s) }
}
var reduced: [ReducedSight] = []
reduced.reserveCapacity(sights.count)
let reduceTime = seconds { for s in sights { reduced.append(try! ReducedSight(s)) } }
let worst = reduced.map { abs($0.gpsError!) }.max()!

// 1,000 fixes of three stars each, a minute apart.
let stars = Body.all.filter { if case .star = $0 { true } else { false } }
var rounds: [[ReducedSight]] = []
while rounds.count < 1_000 {
    let utc = UTCTime(wholeSeconds: Int64.random(in: 631_152_000...2_871_763_200, using: &generator))
    let truth = try! Position(latitude: Double.random(in: -60...60, using: &generator), longitude: Double.random(in: -180..<180, using: &generator))
    let round = (0..<3).compactMap { i in sight(stars.randomElement(using: &generator)!, utc.adding(nanoseconds: Int64(i) * 60_000_000_000), truth) }
        .compactMap { try? ReducedSight($0) }
    if round.count == 3, (try? CelestialFix(round, run: .track)) != nil { rounds.append(round) }
}
var fixes: [CelestialFix] = []
let fixTime = seconds { for r in rounds { fixes.append(try! CelestialFix(r, run: .track)) } }
let iterations = fixes.map(\.iterations).reduce(0, +)

// One almanac entry per class, 10,000 each.
func entries(_ body: Body) -> Double {
    let times = (0..<10_000).map { SkyTime(UTCTime(wholeSeconds: 946_728_000 + Int64($0) * 31_968))! }
    var sink = 0.0
    let t = seconds { for time in times { sink += Almanac.entry(body, at: time).gha } }
    precondition(sink.isFinite)
    return t
}

print("sky on this machine (release build):")
print("  reduce 10,000 sights       \(microseconds(reduceTime, sights.count)) per sight (worst error against the truth \(String(format: "%.4f", worst))′)")
print("  fix 1,000 three-star fixes \(microseconds(fixTime, fixes.count)) per fix (\(String(format: "%.1f", Double(iterations) / Double(fixes.count))) iterations on average)")
for (name, body) in [("Sun", Body.sun), ("Moon", .moon), ("Venus", .venus), ("a star (Vega)", Body(named: "Vega")!)] {
    print("  almanac entry, \(name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(microseconds(entries(body), 10_000))")
}
