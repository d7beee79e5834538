import Foundation
import GRDB
import MarkTimeCore
import MarkTimeSystem

/// A store failure, worded for the navigator: what went wrong, with which file, and what to do.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    case cannotOpen(path: String, reason: String)
    case corrupt(path: String, reason: String)
    case newerSchema(path: String, unknown: [String])
    /// A SQLite file with tables that are not marktime's.
    case foreign(path: String, tables: [String])
    /// An older store opened for reading by a user who may not upgrade it.
    case needsUpgrade(path: String)
    case unknownSight(Int64)
    case failed(path: String, reason: String)
    /// The request itself is wrong (a duplicate name, an unknown place): nothing was written.
    case refused(String)
    /// The store did not take a press, which is kept in the pending-presses file at `path`.
    case keptPending(path: String, reason: String)
    /// Another process held the store's write lock for the whole busy timeout.
    case busy(path: String, holders: [String])

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open store \(path): \(reason)"
        case .corrupt(let path, let reason):
            "store \(path) is not a readable marktime store (\(reason)); move it aside and restore a backup, or choose another with --store"
        case .newerSchema(let path, let unknown):
            "store \(path) was written by a newer marktime (schema \(unknown.joined(separator: ", "))); this binary only reads it: upgrade marktime to change it"
        case .foreign(let path, let tables):
            "\(path) is another program's SQLite database (tables: \(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : "")), not a marktime store; marktime leaves it as it is: choose another file with --store"
        case .needsUpgrade(let path):
            "store \(path) needs an upgrade that only a user who may write it can make: run `marktime status` once as its owner"
        case .unknownSight(let id):
            "no sight with id \(id): `marktime sights --all` lists the ids"
        case .failed(let path, let reason):
            "store \(path) failed: \(reason)"
        case .refused(let reason):
            reason
        case .busy(let path, let holders):
            "store \(path) is busy: \(holders.isEmpty ? "another process" : holders.joined(separator: " and ")) held its write lock for "
                + "\(Quantity.whole(AppDatabase.busyTimeout)) s; wait for it to finish, or stop it"
        case .keptPending(let path, let reason):
            "the store did not take the sight (\(reason)); it is kept safe in \(path), and `marktime daemon` stores it as soon as the store takes writes again"
        }
    }

    /// Translates a GRDB/SQLite error into one that names the file.
    static func wrap(_ error: any Error, path: String) -> StoreError {
        if let e = error as? StoreError { return e }
        if let e = error as? InputError { return .refused(e.description) }
        guard let db = error as? DatabaseError else { return .failed(path: path, reason: "\(error)") }
        let reason = db.message ?? "\(db.resultCode)"
        switch db.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path, reason: reason)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .busy(path: path, holders: LockHolders.writers(of: [path, path + "-shm", path + "-wal"]).map { holder in
                "pid \(holder.pid)" + (holder.command.isEmpty ? "" : " (\(Text.escaped(holder.command.prefix(80))))")
            })
        case .SQLITE_FULL:
            return .failed(path: path, reason: "the disk holding it is full; free space on it (`df -h \((path as NSString).deletingLastPathComponent)` shows it)")
        case .SQLITE_IOERR:
            // A nearly full disk shows as an I/O error when SQLite cannot grow the -shm or
            // the -wal (SQLITE_FULL comes only when a write itself finds no room).
            let folder = (path as NSString).deletingLastPathComponent
            if let free = Files.freeBytes(folder.isEmpty ? "." : folder), free < 1 << 20 {
                return .failed(path: path, reason: "the disk holding it is full (\(free / 1024) KB free, and SQLite needs room for its -wal and -shm beside it); "
                    + "free space on it (`df -h \(folder.isEmpty ? "." : folder)` shows it)")
            }
            return .failed(path: path, reason: "the disk reported an I/O error (SQLite's code \(db.extendedResultCode.rawValue)): the disk or card may be failing or "
                + "was removed; check `dmesg`, and copy the store and its -wal to a safe disk")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return .cannotOpen(path: path, reason: "\(reason); check that you may read and write the file and its folder, or choose another with --store")
        default: return .failed(path: path, reason: reason)
        }
    }
}
