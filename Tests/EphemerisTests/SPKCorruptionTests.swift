import Foundation
import Testing
@testable import Ephemeris

/// Damaged kernels: every one is an `SPKError` naming the file and the problem, or (where the
/// damage is in coefficients no check can see) a kernel whose evaluation still cannot trap.
@Suite("SPK reader: truncated, bit-flipped and malformed kernels")
struct SPKCorruptionTests {
    static let file = "damaged.bsp"
    /// The bundled file record's FREE: the data ends at the word before it.
    static let firstFreeAddress = TestEngine.kernelBytes[84..<88].reversed().reduce(0) { $0 << 8 | Int($1) }

    /// Opens `bytes` as the engine would; evaluates every served body at the span's ends and
    /// middle when it opens (no trap, whatever the numbers).
    static func open(_ bytes: KernelBytes) -> SPKError? {
        do {
            let k = try PlanetaryKernel(bytes: bytes, file: file)
            var helio = [Vector3](repeating: .zero, count: BodyID.count)
            var states = [StateVector](repeating: StateVector(positionAU: .zero, velocityAUPerDay: .zero), count: BodyID.count)
            _ = k.positions(secondsPastJ2000: k.spanSeconds.lowerBound, heliocentricAU: &helio)
            _ = k.states(secondsPastJ2000: k.spanSeconds.upperBound, into: &states)
            _ = k.moonGeocentricState(secondsPastJ2000: (k.spanSeconds.lowerBound + k.spanSeconds.upperBound) / 2)
            for i in k.spk.segments.indices { _ = k.spk.state(segment: i, secondsPastJ2000: .nan) }
            return nil
        } catch {
            return error
        }
    }

    @Test("cut anywhere before the end of its data: refused as cut short, naming the file")
    func truncated() {
        let whole = MutableKernelBytes(TestEngine.kernelBytes)
        let dataEnd = (Self.firstFreeAddress - 1) * 8
        var lengths = [0, 1, 8, 100, 700, 1023, 1024, 1500, 2047, 2048, 3071, 3072, 4096, 100_000, 10_000_000, dataEnd - 8, dataEnd - 1]
        lengths += (0..<40).map { dataEnd / 40 * $0 + 977 }
        for n in lengths {
            guard let error = Self.open(whole.prefix(n)) else { Issue.record("\(n) bytes accepted"); continue }
            #expect(error.kind == .truncated, "\(n) bytes: \(error)")
            #expect(error.description.contains(Self.file), "\(error)")
        }
        // The padding after the data may go: the data is whole.
        #expect(Self.open(whole.prefix(dataEnd)) == nil)
        #expect(Self.open(whole.prefix(TestEngine.kernelBytes.count)) == nil)
    }

    /// The directory bytes whose every bit is flipped: the file record's numbers, format word
    /// and FTP string; each summary's next/previous/count, its integers and the sign and
    /// exponent of its start and end; one byte of each name.
    static let directoryBytes: [Int] = {
        var list = Array(0..<96) + Array(699..<727) + Array(1024..<1048)
        for i in 0..<12 {
            let at = 1048 + i * 40
            list += [at + 6, at + 7, at + 14, at + 15] + Array((at + 16)..<(at + 40))
            list.append(2048 + i * 40 + 4)
        }
        return list
    }()

    @Test("every single-bit flip of the file record's fields, the summaries and the names: refused or still sound")
    func directoryBitFlips() {
        let k = MutableKernelBytes(TestEngine.kernelBytes)
        var refused: [SPKError.Kind: Int] = [:], accepted = 0
        for byte in Self.directoryBytes {
            for bit in 0..<8 {
                k.flip(byte: byte, bit: bit)
                if let e = Self.open(k) {
                    refused[e.kind, default: 0] += 1
                    #expect(e.description.hasPrefix("ephemeris kernel \(Self.file): "))
                } else {
                    accepted += 1
                }
                k.flip(byte: byte, bit: bit)
            }
        }
        print("[corruption] \(Self.directoryBytes.count * 8) directory flips: \(accepted) harmless (the internal name, segment names, unused bits), refused \(refused)")
        // The identification word, ND/NI, the record pointers, the format word and the FTP
        // string are all checked: each of their bits is caught.
        for (byte, bit) in [(0, 0), (5, 3), (8, 1), (12, 2), (76, 0), (84, 6), (90, 1), (699, 4), (720, 7)] {
            k.flip(byte: byte, bit: bit)
            #expect(Self.open(k) != nil, "flip of bit \(bit) in byte \(byte) accepted")
            k.flip(byte: byte, bit: bit)
        }
        #expect(Self.open(k) == nil)
    }

    @Test("every flip of a segment's record size or count, and of the sign or exponent of its interval or first record, is refused")
    func trailerBitFlips() {
        let k = MutableKernelBytes(TestEngine.kernelBytes)
        var refused = 0, total = 0
        for r in TestEngine.kernel.spk.records {
            let trailer = r.dataOffset + r.recordCount * r.recordWords * 8 // INIT, INTLEN, RSIZE, N
            // RSIZE and N: every bit. INIT, INTLEN, MID, RADIUS: sign and exponent (top 12 bits).
            let whole = Array((trailer + 16)..<(trailer + 32)).flatMap { byte in (0..<8).map { (byte, $0) } }
            var high: [(Int, Int)] = []
            for w in [trailer, trailer + 8, r.dataOffset, r.dataOffset + 8] {
                high += (0..<8).map { (w + 7, $0) }
                high += (4..<8).map { (w + 6, $0) }
            }
            for (byte, bit) in whole + high {
                k.flip(byte: byte, bit: bit)
                if Self.open(k) != nil { refused += 1 } else { Issue.record("flip of bit \(bit) in byte \(byte) accepted") }
                total += 1
                k.flip(byte: byte, bit: bit)
            }
            // The low bits of the times are within the checks' slack: accepted, and harmless.
            for bit in 0..<8 {
                k.flip(byte: trailer, bit: bit)
                _ = Self.open(k)
                k.flip(byte: trailer, bit: bit)
            }
        }
        print("[corruption] \(refused) of \(total) flips of record sizes, counts, signs and exponents refused")
    }

    @Test("random flips among the coefficients: the kernel opens and evaluates without trapping")
    func coefficientFlips() {
        let k = MutableKernelBytes(TestEngine.kernelBytes)
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<2000 {
            let byte = 3 * 1024 + Int(rng.next() % UInt64(TestEngine.kernelBytes.count - 3 * 1024))
            k.flip(byte: byte, bit: Int(rng.next() % 8))
        }
        #expect(Self.open(k) == nil)
    }

    /// The first 3 KiB of the bundled kernel with `change` applied.
    static func directory(_ change: (inout [UInt8]) -> Void) -> SPKError? {
        var b = TestEngine.kernelBytes
        change(&b)
        return open(KernelBuffer(copying: b))
    }

    @Test("malformed files are refused with what is wrong")
    func malformed() throws {
        func put(_ s: String, _ at: Int, _ b: inout [UInt8]) { b.replaceSubrange(at..<(at + s.utf8.count), with: Array(s.utf8)) }
        func putInt(_ v: Int32, _ at: Int, _ b: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { b.replaceSubrange(at..<(at + 4), with: $0) } }
        func putDouble(_ v: Double, _ at: Int, _ b: inout [UInt8]) { withUnsafeBytes(of: v.bitPattern.littleEndian) { b.replaceSubrange(at..<(at + 8), with: $0) } }
        let cases: [(String, SPKError.Kind, String, (inout [UInt8]) -> Void)] = [
            ("JSON", .notDAF, "not a NAIF DAF", { $0 = Array(#"{"bodies": []}"#.utf8) + [UInt8](repeating: 0x20, count: 2000) }),
            ("a PCK", .unsupported, "DAF/PCK", { put("DAF/PCK ", 0, &$0) }),
            ("VAX numbers", .unsupported, "VAX-GFLT", { put("VAX-GFLT", 88, &$0) }),
            ("ND = 3", .corrupt, "ND=3", { putInt(3, 8, &$0) }),
            ("a text-mode transfer", .corrupt, "FTP validation", { $0[707] = 0x0A }),
            ("first summary record 0", .corrupt, "first summary record", { putInt(0, 76, &$0) }),
            ("a summary record pointing to itself", .corrupt, "next record", { putDouble(2, 1024, &$0) }),
            ("30 summaries in a record", .corrupt, "30.0 summaries", { putDouble(30, 1040, &$0) }),
            ("a segment past the end", .corrupt, "outside the file", { putInt(Int32.max, 1024 + 24 + 36, &$0) }),
            ("addresses reversed", .corrupt, "outside the file", { putInt(1, 1024 + 24 + 36, &$0) }),
            ("coverage reversed", .corrupt, "not an interval", { putDouble(1e12, 1024 + 24, &$0) }),
            ("a Chebyshev record size that does not fit", .corrupt, "record size", { putDouble(45, (402_196 - 2) * 8, &$0) }),
            ("a record count that does not fit", .corrupt, "records of", { putDouble(9131, (402_196 - 1) * 8, &$0) }),
            ("a zero interval", .corrupt, "length 0", { putDouble(0, (402_196 - 3) * 8, &$0) }),
            ("a record off its place", .corrupt, "midpoint", { putDouble(-3_155_716_800 + 1000, (385 - 1) * 8, &$0) }),
            ("no summaries", .missingSegments, "no segments", { putDouble(0, 1040, &$0) }),
        ]
        for (what, kind, words, change) in cases {
            guard let e = Self.directory(change) else { Issue.record("\(what): accepted"); continue }
            #expect(e.kind == kind, "\(what): \(e)")
            #expect(e.description.contains(words) && e.description.contains(Self.file), "\(what): \(e)")
        }
    }
}

/// A small deterministic generator (Steele, Lea & Flood 2014) so the flips repeat run to run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
