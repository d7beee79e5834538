import CLibCrypto

/// SHA-256 through OpenSSL's `EVP_Digest`, as lowercase hex: photo file names and the
/// stored form of session tokens and invite codes.
public enum SHA256 {
    /// Why a digest could not be made.
    public static let failure = "OpenSSL could not compute a SHA-256 (EVP_Digest failed): check /etc/ssl/openssl.cnf and that libssl3 is installed"

    /// The digest of `bytes`; nil only when libcrypto cannot run the digest (an
    /// allocation failure or a broken OpenSSL configuration): `failure` says so.
    public static func hex(_ bytes: [UInt8]) -> String? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        guard ok == 1, length == 32 else { return nil }
        let hexDigits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest.prefix(32) {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func hex(_ text: String) -> String? {
        hex(Array(text.utf8))
    }
}
