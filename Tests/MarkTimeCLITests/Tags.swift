import Testing

/// The real components a test meets: each contract test is tagged with its component. (The
/// Linux runner of swift-testing 6.3 cannot filter by tag: a tier is run by its suites'
/// names, `swift test --filter GPSDTests`.)
extension Tag {
    /// A contract test with a real gpsd, fed by gpsfake.
    @Tag static var gpsd: Self
    /// A contract test with a real Mosquitto broker.
    @Tag static var mosquitto: Self
    /// A contract test with ALSA's file PCM (the tones as samples).
    @Tag static var alsa: Self
    /// A contract test with a real terminal: tmux.
    @Tag static var tmux: Self
    /// A contract test with gpsbabel reading what marktime writes.
    @Tag static var gpsbabel: Self
    /// The daemon as a process: its lock, signals, doorbell and supervision.
    @Tag static var daemonProcess: Self
}
