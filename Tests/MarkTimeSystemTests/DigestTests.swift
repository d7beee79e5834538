import MarkTimeSystem
import Testing

@Suite("SHA-256 through libcrypto")
struct DigestTests {
    @Test("FIPS 180-2's test vectors give their published digests", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func vectors(text: String, digest: String) throws {
        // Given a message; when it is hashed; then the digest is the published one, in lowercase hex.
        #expect(SHA256.hex(text) == digest)
    }

    @Test("A million 'a's, bytes rather than text, give the published digest")
    func million() throws {
        // Given 1,000,000 bytes of 'a'; when hashed; then FIPS 180-2's third digest.
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
