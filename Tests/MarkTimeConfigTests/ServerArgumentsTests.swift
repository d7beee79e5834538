import MarkTimeConfig
import MarkTimeCore
import Testing

/// What `marktime daemon` and `marktime web` hand `marktimed`, and how it reads them back.
@Suite("marktimed's command line")
struct ServerArgumentsTests {
    @Test("Every option of the daemon comes back from the command line it makes")
    func everyDaemonOptionRoundTrips() throws {
        // Given the options of `marktime daemon`, all of them set
        let given = ServerArguments.daemon(DaemonArguments(store: "/s/m.sqlite", config: "/c/c.toml", button: "/dev/input/event3",
                                                           gpsd: "[::1]:2947", web: false))
        // When they are written as marktimed's command line and read back
        let line = given.commandLine
        // Then the line is in a fixed order, and reads back as the same options
        #expect(line == ["--store", "/s/m.sqlite", "--config", "/c/c.toml", "--button", "/dev/input/event3", "--gpsd", "[::1]:2947", "--no-web"])
        #expect(try ServerArguments(parsing: line) == given)
    }

    @Test("Every option of the page comes back after 'web'")
    func everyPageOptionRoundTrips() throws {
        let given = ServerArguments.page(PageArguments(store: "/s/m.sqlite", config: "/c/c.toml", listen: "0.0.0.0:8443"))
        #expect(given.commandLine == ["web", "--store", "/s/m.sqlite", "--config", "/c/c.toml", "--listen", "0.0.0.0:8443"])
        #expect(try ServerArguments(parsing: given.commandLine) == given)
    }

    @Test("Options not given are left out, so marktimed finds them as every command does")
    func optionsNotGivenAreLeftOut() throws {
        #expect(ServerArguments.daemon(DaemonArguments(web: true)).commandLine == ["--web"])
        #expect(try ServerArguments(parsing: []) == .daemon(DaemonArguments()))
        #expect(try ServerArguments(parsing: ["web"]) == .page(PageArguments()))
    }

    @Test("A value after '=' is read, a path with spaces kept whole, and the last of an option counts")
    func equalsFormAndLastWins() throws {
        let read = try DaemonArguments(parsing: ["--store=/a b/x.sqlite", "--no-web", "--web", "--store", "/c/y.sqlite=1"])
        #expect(read == DaemonArguments(store: "/c/y.sqlite=1", web: true))
    }

    @Test("A value that looks like an option is taken as the value: a store named --web leaves --web unset")
    func valueThatLooksLikeAFlag() throws {
        #expect(try DaemonArguments(parsing: ["--store", "--web"]) == DaemonArguments(store: "--web"))
    }

    @Test("An option without its value is refused, naming it and the command whose help says more")
    func missingValueIsRefused() {
        #expect(throws: InputError("--button needs a value: see `marktime daemon --help`")) {
            try DaemonArguments(parsing: ["--store", "/s.sqlite", "--button"])
        }
        #expect(throws: InputError("--listen needs a value: see `marktime web --help`")) {
            try ServerArguments(parsing: ["web", "--listen"])
        }
    }

    @Test("An unknown argument is refused, with where the options are described")
    func unknownArgumentIsRefused() {
        #expect(throws: InputError("unknown argument '--web=yes': marktimed takes the options of `marktime daemon` (see `marktime daemon --help`), which starts it")) {
            try DaemonArguments(parsing: ["--web=yes"])
        }
        #expect(throws: InputError("unknown argument '--button': marktimed takes the options of `marktime web` (see `marktime web --help`), which starts it")) {
            try ServerArguments(parsing: ["web", "--button", "/dev/input/event0"])
        }
    }

    @Test("A --gpsd that is not HOST:PORT is refused with the sentence the command line gives")
    func badGPSDIsRefused() {
        #expect(throws: InputError("--gpsd 'localhost' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947")) {
            try DaemonArguments(parsing: ["--gpsd", "localhost"])
        }
    }
}
