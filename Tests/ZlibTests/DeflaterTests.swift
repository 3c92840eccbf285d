import CZlib
import Testing
import Zlib

@Suite("Deflater and Inflater")
struct DeflaterTests {
    /// Text-like input with repeats (compresses) and a pseudo-random tail (does not).
    static let sample: [UInt8] = {
        var bytes = Array(String(repeating: "{\"id\":\"earth\",\"position\":[0.1,0.2,0.3]},", count: 400).utf8)
        var x: UInt32 = 2_463_534_242
        for _ in 0..<5000 {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5
            bytes.append(UInt8(truncatingIfNeeded: x))
        }
        return bytes
    }()

    @Test("one-shot gzip and zlib round-trip through inflate", arguments: [DeflateFormat.gzip, .zlib])
    func roundTrip(format: DeflateFormat) throws {
        let packed = Deflater.compress(Self.sample, format: format)
        #expect(packed.count < Self.sample.count)
        let inflateFormat: Inflater.Format = format == .gzip ? .gzip : .zlib
        #expect(try Inflater.decompress(packed, format: inflateFormat, limit: 1 << 20) == Self.sample)
        #expect(try Inflater.decompress(packed, format: .automatic, limit: 1 << 20) == Self.sample)
        if format == .gzip { #expect(Array(packed.prefix(2)) == [0x1F, 0x8B]) }
    }

    @Test("streaming in uneven pieces gives one valid stream")
    func streaming() throws {
        let d = Deflater(format: .gzip, level: 6, scratchSize: 1024)
        var out: [UInt8] = []
        var i = 0
        var piece = 1
        while i < Self.sample.count {
            let end = min(Self.sample.count, i + piece)
            out += d.compress(Array(Self.sample[i..<end]))
            i = end
            piece = piece * 3 + 7
        }
        out += d.compress([], finish: true)
        #expect(d.isFinished)
        #expect(try Inflater.decompress(out, format: .gzip, limit: 1 << 20) == Self.sample)
    }

    @Test("a compact stream (8 KiB window, memLevel 6) round-trips and says what it keeps", arguments: [DeflateFormat.gzip, .zlib])
    func compactMemory(format: DeflateFormat) throws {
        let d = Deflater(format: format, level: 1, memory: .compact, scratchSize: 16 * 1024)
        var out = d.compress(Array(Self.sample.prefix(3000)))
        out += d.compress(Array(Self.sample.dropFirst(3000)), finish: true)
        let inflateFormat: Inflater.Format = format == .gzip ? .gzip : .zlib
        #expect(try Inflater.decompress(out, format: inflateFormat, limit: 1 << 20) == Self.sample)
        // zconf.h: (1 << (windowBits + 2)) + (1 << (memLevel + 9)), plus the state and the scratch.
        #expect(DeflateMemory.compact.streamBytes == (1 << 15) + (1 << 15) + 6 * 1024)
        #expect(DeflateMemory.standard.streamBytes == (1 << 17) + (1 << 17) + 6 * 1024)
        #expect(d.retainedBytes == DeflateMemory.compact.streamBytes + 16 * 1024)
        #expect(Deflater(format: format).retainedBytes > 3 * d.retainedBytes)
        // Out-of-range settings are clamped to what zlib accepts, not passed on to fail.
        #expect(DeflateMemory(windowBits: 30, memoryLevel: 0) == DeflateMemory(windowBits: 15, memoryLevel: 1))
    }

    @Test("empty input is a valid empty stream")
    func empty() throws {
        #expect(try Inflater.decompress(Deflater.compress([], format: .gzip), format: .gzip, limit: 16) == [])
    }

    @Test("inflate refuses output beyond the limit, truncated and corrupt input")
    func hostileInput() throws {
        let packed = Deflater.compress(Self.sample, format: .gzip)
        #expect(throws: ZlibError.tooLarge(limit: 1000)) { try Inflater.decompress(packed, format: .gzip, limit: 1000) }
        #expect(throws: ZlibError.truncated) { try Inflater.decompress(Array(packed.prefix(packed.count / 2)), format: .gzip, limit: 1 << 20) }
        var damaged = packed
        damaged[0] ^= 0xFF // not a gzip header
        #expect(throws: (any Error).self) { try Inflater.decompress(damaged, format: .gzip, limit: 1 << 20) }
    }
}
