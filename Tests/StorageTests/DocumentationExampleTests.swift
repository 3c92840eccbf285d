import Testing
@testable import Storage

/// The results the Storage module's documentation states, run as written (Skyfield's habit: a
/// docstring example that states a number is a test). SHA-256 of "abc" is `SHA256Tests`.
@Suite("Documentation examples: Storage")
struct StorageDocumentationExampleTests {
    @Test("PackedDoubles: 16 little-endian bytes for [1.0, -0.0], back again, nil for 3 bytes")
    func packedDoubles() throws {
        let bytes = PackedDoubles.pack([1.0, -0.0])
        #expect(bytes.count == 16)
        #expect(Array(bytes.prefix(8)) == [0, 0, 0, 0, 0, 0, 0xf0, 0x3f])
        #expect(Array(bytes.suffix(8)) == [0, 0, 0, 0, 0, 0, 0, 0x80])
        let back = try #require(PackedDoubles.unpack(bytes))
        #expect(back == [1.0, -0.0] && back[1].sign == .minus)
        #expect(PackedDoubles.unpack([1, 2, 3]) == nil)
    }

    @Test("Migration: version 1, name trajectory_cache, a 64-hex-digit checksum")
    func migrationExample() throws {
        let m = try Migration(fileName: "0001_trajectory_cache.sql", contents: Array("CREATE TABLE t (x);".utf8))
        #expect(m.version == 1)
        #expect(m.name == "trajectory_cache")
        #expect(m.checksum.count == 64 && m.checksum.allSatisfy { $0.isHexDigit })
    }
}
