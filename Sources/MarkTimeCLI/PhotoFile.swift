import Foundation
import MarkTimeCore
import MarkTimeJournal
import MarkTimeSystem

/// A photo's file as `marktime photo add` reads it: its type and size are checked before it
/// is read (a FIFO, a 2 GB video or a text file is refused from its first bytes, with
/// memory kept small).
enum PhotoFile {
    static func read(_ file: String) throws -> [UInt8] {
        let size: Int
        switch FileKind(file) {
        case .regular(let bytes): size = Int(bytes)
        case .missing: throw InputError("cannot read \(file): there is no such file; check the path")
        case .nameTooLong: throw InputError("cannot read \(file): its name is too long (\(FileKind.nameLimits)); check the path")
        case .loop: throw InputError("cannot read \(file): its symbolic links go round in a loop; check the path")
        case .unknown(let reason): throw InputError("cannot read \(file): \(reason); check the path and its permissions")
        case .folder, .fifo, .socket, .device: throw InputError("\(file) is not a regular file: give a JPEG or PNG photo's file")
        }
        guard size <= ImageInfo.maximumBytes else {
            throw InputError("\(file) is \(size / 1_048_576) MB: marktime keeps photos up to \(ImageInfo.maximumBytes / 1_048_576) MB; "
                + "make it smaller (e.g. `convert \(file) -resize 50% smaller.jpg`) and add that: nothing added")
        }
        guard let handle = FileHandle(forReadingAtPath: file) else { throw InputError("cannot read \(file): check its permissions") }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
        guard ImageInfo.startsAnImage(head) else {
            throw ImageInfo.notAnImage(file)
        }
        return head + [UInt8]((try? handle.read(upToCount: ImageInfo.maximumBytes)) ?? Data())
    }
}
