import Testing
@testable import Storage

@Suite("Packed little-endian doubles")
struct PackedDoublesTests {
    static let awkward: [Double] = [
        0, -0.0, 1, -1, .pi, .infinity, -.infinity, .nan, -.nan,
        Double(bitPattern: 0x7FF0_0000_0000_0001), // signalling NaN with payload
        Double(bitPattern: 0x7FF8_DEAD_BEEF_0042), // quiet NaN with payload
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude.nextDown, // subnormals
        .greatestFiniteMagnitude, 1e-300, 149_597_870.7,
    ]

    @Test("layout is little-endian IEEE 754")
    func layout() {
        #expect(PackedDoubles.pack([1.0]) == [0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
        #expect(PackedDoubles.pack([-0.0]) == [0, 0, 0, 0, 0, 0, 0, 0x80])
        #expect(PackedDoubles.pack([]) == [])
    }

    @Test("round trip is bit-exact")
    func roundTrip() throws {
        let back = try #require(PackedDoubles.unpack(PackedDoubles.pack(Self.awkward)))
        #expect(back.map(\.bitPattern) == Self.awkward.map(\.bitPattern))
    }

    @Test("a length that is not a multiple of 8 is refused, unaligned input is fine")
    func lengths() {
        for n in 1...7 { #expect(PackedDoubles.unpack([UInt8](repeating: 0, count: 8 + n)) == nil) }
        #expect(PackedDoubles.unpack([]) == [])
        let bytes = [0xAA] + PackedDoubles.pack([2.5, -3])
        let unaligned = bytes.withUnsafeBytes { PackedDoubles.unpack(UnsafeRawBufferPointer(rebasing: $0[1...])) }
        #expect(unaligned == [2.5, -3])
    }
}
