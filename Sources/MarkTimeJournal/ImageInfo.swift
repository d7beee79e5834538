import MarkTimeCore

/// What a photo's bytes say about it: JPEG or PNG by their magic bytes, the pixel
/// size, and for JPEG the EXIF capture time if it carries one.
public struct ImageInfo: Hashable, Sendable {
    public enum Format: String, Sendable { case jpeg, png }

    public var format: Format
    public var width: Int
    public var height: Int
    /// EXIF DateTimeOriginal: a wall-clock time, with OffsetTimeOriginal's offset (seconds) when given.
    public var captured: LocalDateTime?
    /// The seconds of the capture time's minute.
    public var capturedSecond = 0
    public var capturedOffset: Int?

    /// The largest photo kept, in bytes (the phone page takes the same).
    public static let maximumBytes = 16 * 1024 * 1024

    /// The refusal of bytes from `name` that are not a JPEG or PNG image.
    public static func notAnImage(_ name: String) -> InputError {
        InputError("\(name) is not a JPEG or PNG image (its first bytes say so, whatever its name): nothing added")
    }

    /// Whether a file's first 8 bytes start a PNG or a JPEG: asked before the rest is read.
    public static func startsAnImage(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) || head.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// The file extension media files get.
    public var fileExtension: String { format == .jpeg ? "jpg" : "png" }

    /// `nil` when the bytes are neither a JPEG nor a PNG with a readable size.
    public init?(_ bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The IHDR chunk comes first: width and height, big-endian, at bytes 16 and 20.
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
            format = .png
            width = Self.be32(bytes, 16)
            height = Self.be32(bytes, 20)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = .jpeg
            guard let (w, h, exif) = Self.scanJPEG(bytes) else { return nil }
            width = w
            height = h
            if let exif, let (time, second, offset) = Self.exifTime(exif) {
                captured = time
                capturedSecond = second
                capturedOffset = offset
            }
        } else {
            return nil
        }
        guard width > 0, height > 0 else { return nil }
    }

    static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    static func be32(_ b: [UInt8], _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }

    /// Walks the JPEG's segments to the first start-of-frame: its size, and the EXIF
    /// (APP1) payload if one came before it.
    static func scanJPEG(_ b: [UInt8]) -> (Int, Int, ArraySlice<UInt8>?)? {
        var i = 2, exif: ArraySlice<UInt8>?
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = be16(b, i + 2)
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let body = b[(i + 4)..<(i + 2 + length)]
            if marker == 0xE1, body.starts(with: Array("Exif".utf8) + [0, 0]) { exif = body.dropFirst(6) }
            // SOF0…SOF15, except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard body.count >= 5 else { return nil }
                let s = body.startIndex
                return (be16(b, s + 3), be16(b, s + 1), exif)
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            i += 2 + length
        }
        return nil
    }

    /// DateTimeOriginal (0x9003) and OffsetTimeOriginal (0x9011) from the EXIF sub-IFD.
    static func exifTime(_ tiff: ArraySlice<UInt8>) -> (LocalDateTime, Int, Int?)? {
        let t = Array(tiff)
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ i: Int) -> Int? { i + 2 <= t.count ? (little ? Int(t[i]) | Int(t[i + 1]) << 8 : Int(t[i]) << 8 | Int(t[i + 1])) : nil }
        func u32(_ i: Int) -> Int? { guard let a = u16(i), let b = u16(i + 2) else { return nil }; return little ? a | b << 16 : a << 16 | b }
        /// Tag → (type, count, value or offset) of the IFD at `at`.
        func entries(_ at: Int) -> [Int: (Int, Int, Int)] {
            guard let n = u16(at), n < 1000 else { return [:] }
            var out: [Int: (Int, Int, Int)] = [:]
            for k in 0..<n {
                let e = at + 2 + k * 12
                guard let tag = u16(e), let type = u16(e + 2), let count = u32(e + 4), let value = u32(e + 8) else { break }
                out[tag] = (type, count, value)
            }
            return out
        }
        func ascii(_ entry: (Int, Int, Int)?) -> String? {
            guard let (type, count, value) = entry, type == 2, count > 0 else { return nil }
            let start = count <= 4 ? -1 : value
            guard start >= 0, start + count <= t.count else { return nil }
            return String(decoding: t[start..<(start + count)].prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let ifd0 = u32(4), let sub = entries(ifd0)[0x8769]?.2 else { return nil }
        let exif = entries(sub)
        guard let text = ascii(exif[0x9003]) else { return nil }
        // "YYYY:MM:DD HH:MM:SS"
        let parts = text.split(separator: " ")
        guard parts.count == 2, let date = CivilDate(iso: String(parts[0].map { $0 == ":" ? "-" : $0 })),
              let minute = LocalDateTime.minuteOfDay(String(parts[1].prefix(5))) else { return nil }
        let second = parts[1].count == 8 ? Int(parts[1].suffix(2)) ?? 0 : 0
        var offset: Int?
        if let o = ascii(exif[0x9011]), o.count == 6, let h = Int(o.dropFirst().prefix(2)), let m = Int(o.suffix(2)) {
            offset = (h * 3600 + m * 60) * (o.first == "-" ? -1 : 1)
        }
        return (LocalDateTime(date: date, minuteOfDay: minute), min(second, 59), offset)
    }
}

extension ImageInfo {
    /// The time a photo is filed under when none is given: its EXIF capture time (exact
    /// with the camera's offset, else read in `zone`), else `now`. A camera clock outside
    /// the store's years is ignored.
    public func filingTime(zone: any ZoneRules, now: UTCTime) throws -> UTCTime {
        guard let captured else { return now }
        let minute = try capturedOffset.map { captured.secondsAsUTC - Int64($0) } ?? zone.instant(of: captured).seconds
        return (try? UTCTime(validWholeSeconds: minute + Int64(capturedSecond))) ?? now
    }
}

/// A photo as the journal keeps it: its file's hash and extension, and pixel size.
public struct StoredPhoto: Hashable, Sendable {
    public var sha256: String
    public var fileExtension: String
    public var width: Int
    public var height: Int

    public init(sha256: String, fileExtension: String, width: Int, height: Int) {
        self.sha256 = sha256
        self.fileExtension = fileExtension
        self.width = width
        self.height = height
    }

    /// `<sha256>.jpg`, in the media folder.
    public var fileName: String { "\(sha256).\(fileExtension)" }
}
