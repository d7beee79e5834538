import MarkTimeCore
import Testing
import MarkTimeDaemon

/// What `marktime daemon` hands `marktimed`, and how `marktimed` reads it back.
@Suite("marktimed's command line")
struct DaemonArgumentsTests {
    @Test("Every option given comes back from the command line it makes")
    func everyOptionRoundTrips() throws {
        // Given the options of `marktime daemon`, all of them set
        let given = DaemonArguments(store: "/s/m.sqlite", config: "/c/c.toml", button: "/dev/input/event3",
                                    gpsd: "[::1]:2947", web: false, marktime: "/usr/bin/marktime")
        // When they are written as marktimed's command line and read back
        let line = given.commandLine
        // Then the line is in a fixed order, and reads back as the same options
        #expect(line == ["--store", "/s/m.sqlite", "--config", "/c/c.toml", "--button", "/dev/input/event3",
                         "--gpsd", "[::1]:2947", "--marktime", "/usr/bin/marktime", "--no-web"])
        #expect(try DaemonArguments(parsing: line) == given)
    }

    @Test("Options not given are left out, so marktimed finds them as every command does")
    func optionsNotGivenAreLeftOut() throws {
        // Given only --web
        let given = DaemonArguments(web: true)
        // When it is written out, then only --web is there, and nothing else is set on reading
        #expect(given.commandLine == ["--web"])
        #expect(try DaemonArguments(parsing: []) == DaemonArguments())
    }

    @Test("A value after '=' is read, a path with spaces kept whole, and the last of an option counts")
    func equalsFormAndLastWins() throws {
        // When the store is given twice, once with '='
        let read = try DaemonArguments(parsing: ["--store=/a b/x.sqlite", "--no-web", "--web", "--store", "/c/y.sqlite=1"])
        // Then the last one counts, with its '=' kept in the value
        #expect(read == DaemonArguments(store: "/c/y.sqlite=1", web: true))
    }

    @Test("An option without its value is refused, naming it")
    func missingValueIsRefused() {
        #expect(throws: InputError("--button needs a value: see `marktime daemon --help`")) {
            try DaemonArguments(parsing: ["--store", "/s.sqlite", "--button"])
        }
    }

    @Test("An unknown argument is refused, with where the options are described")
    func unknownArgumentIsRefused() {
        #expect(throws: InputError("unknown argument '--web=yes': marktimed takes the options of `marktime daemon` (see `marktime daemon --help`), which starts it")) {
            try DaemonArguments(parsing: ["--web=yes"])
        }
    }

    @Test("A --gpsd that is not HOST:PORT is refused with the sentence the command line gives")
    func badGPSDIsRefused() {
        #expect(throws: InputError("--gpsd 'localhost' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947")) {
            try DaemonArguments(parsing: ["--gpsd", "localhost"])
        }
    }
}
