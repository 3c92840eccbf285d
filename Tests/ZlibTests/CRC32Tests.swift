import Testing
import Zlib

@Suite("CRC-32")
struct CRC32Tests {
    @Test("known check values")
    func vectors() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test("running update equals one pass")
    func incremental() {
        let bytes = Array("123456789".utf8)
        #expect(CRC32.update(CRC32.checksum(bytes[0..<4]), bytes[4...]) == 0xCBF4_3926)
    }
}
