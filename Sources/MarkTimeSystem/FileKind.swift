import Glibc

/// What a path names, asked without opening it (opening, and then closing, a SQLite file
/// would drop this process's POSIX locks on it).
public enum FileKind: Hashable, Sendable {
    /// Nothing there (or a symbolic link to nothing yet).
    case missing
    /// A symbolic link that goes round in a loop (ELOOP).
    case loop
    /// A name longer than a file's name or path may be (ENAMETOOLONG): no file can have it.
    case nameTooLong
    case regular(size: Int64)
    case folder
    case fifo
    case socket
    case device
    /// It could not be asked (`stat(2)` failed otherwise): the system's reason.
    case unknown(reason: String)

    /// What `path` names, its symbolic links followed (`stat(2)`).
    public init(_ path: String) {
        let info: stat
        do { info = try Kernel.status(path) } catch {
            switch error.errno {
            case .noSuchFileOrDirectory, .notDirectory: self = .missing
            case .tooManySymbolicLinkLevels: self = .loop
            case .fileNameTooLong: self = .nameTooLong
            default: self = .unknown(reason: String(cString: strerror(error.errno.rawValue)))
            }
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular(size: Int64(info.st_size))
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        default: self = .device
        }
    }

    /// In words, for a refusal: "a FIFO (named pipe)", "a socket", "a device", "a folder".
    public var named: String {
        switch self {
        case .missing: "nothing"
        case .loop: "a symbolic link that goes round in a loop"
        case .nameTooLong: "a name longer than a file may have"
        case .regular: "a file"
        case .folder: "a folder"
        case .fifo: "a FIFO (named pipe)"
        case .socket: "a socket"
        case .device: "a device"
        case .unknown(let reason): "unreadable (\(reason))"
        }
    }
}

extension FileKind {
    /// Why no file can have a name, for refusals: the system's limits.
    public static let nameLimits = "a file's name may have at most \(NAME_MAX) bytes, and its path \(PATH_MAX - 1)"
}

extension Files {
    /// The bytes an unprivileged process may still write on the disk holding `folder`
    /// (`statvfs(3)`); nil when it cannot be asked.
    public static func freeBytes(_ folder: String) -> Int64? {
        guard let info = try? Kernel.fileSystem(folder) else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
