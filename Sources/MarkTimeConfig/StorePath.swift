import Foundation

/// Where the one store file lives.
public enum StorePath {
    public static let system = "/var/lib/marktime/marktime.sqlite"

    /// `--store PATH`, then `$MARKTIME_STORE`, then `/var/lib/marktime/marktime.sqlite`
    /// if it exists, then `$XDG_DATA_HOME/marktime/marktime.sqlite` (default `~/.local/share`).
    /// `isDefault` is false when the user named the file.
    public static func resolve(explicit: String?, environment: [String: String],
                               exists: (String) -> Bool) -> (path: String, isDefault: Bool) {
        if let explicit { return (explicit, false) }
        if let env = environment["MARKTIME_STORE"], !env.isEmpty { return (env, false) }
        if exists(system) { return (system, true) }
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return (base + "/marktime/marktime.sqlite", true)
    }
}
