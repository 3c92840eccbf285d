import Testing
@testable import Storage

@Suite("SHA-256 against the FIPS 180-2 vectors")
struct SHA256Tests {
    @Test("\"abc\" (FIPS 180-2 appendix B.1)")
    func abc() {
        #expect(SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("the empty string")
    func empty() {
        #expect(SHA256.hexDigest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("448-bit message, two blocks (appendix B.2)")
    func twoBlocks() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hexDigest(message) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("one million 'a' (appendix B.3)")
    func millionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("padding edges: 55, 56, 63, 64 and 65 bytes differ and stream like one shot")
    func paddingEdgesAndStreaming() {
        var digests = Set<String>()
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 127, 128, 129] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let oneShot = SHA256.hash(message)
            digests.insert(SHA256.hex(oneShot))
            // Fed in every split position, the digest is the same.
            for split in 0...length {
                var hasher = SHA256()
                hasher.update(Array(message[..<split]))
                hasher.update(Array(message[split...]))
                #expect(hasher.finalize() == oneShot, "length \(length) split \(split)")
            }
        }
        #expect(digests.count == 11)
    }

    @Test("finalize leaves the hasher usable")
    func finalizeIsNonDestructive() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        _ = hasher.finalize()
        hasher.update(Array("c".utf8))
        #expect(SHA256.hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
