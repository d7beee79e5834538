import MarkTimeConfig
import Testing

@Suite("Where the store lives")
struct StorePathTests {
    let env = ["HOME": "/home/pi", "XDG_DATA_HOME": "/data", "MARKTIME_STORE": "/env.sqlite"]

    @Test func theOptionComesFirst() {
        #expect(StorePath.resolve(explicit: "/opt.sqlite", environment: env, exists: { _ in true }) == ("/opt.sqlite", false))
    }

    @Test func thenTheEnvironment() {
        #expect(StorePath.resolve(explicit: nil, environment: env, exists: { _ in true }) == ("/env.sqlite", false))
    }

    @Test func thenTheSystemStoreIfItExists() {
        var e = env
        e["MARKTIME_STORE"] = nil
        #expect(StorePath.resolve(explicit: nil, environment: e, exists: { $0 == StorePath.system }) == (StorePath.system, true))
    }

    @Test func thenXDGDataHome() {
        var e = env
        e["MARKTIME_STORE"] = nil
        #expect(StorePath.resolve(explicit: nil, environment: e, exists: { _ in false }) == ("/data/marktime/marktime.sqlite", true))
    }

    @Test func thenTheHomeFolder() {
        let e = ["HOME": "/home/pi"]
        #expect(StorePath.resolve(explicit: nil, environment: e, exists: { _ in false }) == ("/home/pi/.local/share/marktime/marktime.sqlite", true))
    }
}
