import Foundation
import Testing
@testable import Ephemeris

/// Where a segment is in a little-endian SPK file, read straight from its summary records (so
/// the tests can damage exactly the words they mean to).
struct SegmentSummary {
    let number: Int
    let target: Int
    let center: Int
    let type: Int
    /// Byte offset of the summary (start and end doubles, then the six integers).
    let summaryOffset: Int
    /// 1-based DAF word addresses of the segment's first and last words.
    let first: Int
    let last: Int

    /// How the reader names the segment in its errors.
    var label: String { "segment \(number) (\(target) from \(center), type \(type))" }

    static func all(_ b: [UInt8]) -> [SegmentSummary] {
        func int(_ at: Int) -> Int { Int(Int32(bitPattern: UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24)) }
        var out: [SegmentSummary] = []
        var record = int(76)
        while record != 0 {
            let at = (record - 1) * 1024
            for i in 0..<Int(word(b, byte: at + 16)) {
                let s = at + 24 + 40 * i
                out.append(SegmentSummary(number: out.count + 1, target: int(s + 16), center: int(s + 20), type: int(s + 28),
                                          summaryOffset: s, first: int(s + 32), last: int(s + 36)))
            }
            record = Int(word(b, byte: at))
        }
        return out
    }

    /// The segment's word `k` from the end (1 is the last), as a DAF address.
    func fromEnd(_ k: Int) -> Int { last - k + 1 }
}

func word(_ b: [UInt8], byte at: Int) -> Double {
    var bits: UInt64 = 0
    for i in 0..<8 { bits |= UInt64(b[at + i]) << (8 * i) }
    return Double(bitPattern: bits)
}

func word(_ b: [UInt8], _ address: Int) -> Double { word(b, byte: (address - 1) * 8) }

func put(_ b: inout [UInt8], _ address: Int, _ v: Double) {
    withUnsafeBytes(of: v.bitPattern.littleEndian) { b.replaceSubrange((address - 1) * 8..<(address * 8), with: $0) }
}

func putInt(_ b: inout [UInt8], byte at: Int, _ v: Int) {
    withUnsafeBytes(of: Int32(v).littleEndian) { b.replaceSubrange(at..<(at + 4), with: $0) }
}

/// Damaged kernels of the types read through `SPKKernel.Model` (1, 8, 9, 12, 13, 18, 19, 21):
/// each is an `SPKError` naming the file and the segment, or a kernel whose evaluation cannot
/// trap at any epoch.
extension SPKCorruptionTests {
    static func sample(_ name: String) -> [UInt8] { TestEngine.repositoryFile("\(SPKFixture.kernels)/\(name)") }

    /// Opens `bytes` as an `SPKKernel` and evaluates every segment inside, at and beyond its
    /// ends, at NaN and ±infinity (no trap, whatever the numbers). The error, if refused.
    static func openSPK(_ bytes: KernelBytes) -> SPKError? {
        do {
            let spk = try SPKKernel(bytes: bytes, file: file)
            for (i, s) in spk.segments.enumerated() {
                let span = s.endSeconds - s.startSeconds
                for t in [s.startSeconds, s.endSeconds, s.startSeconds + 0.37 * span, s.startSeconds + 0.81 * span,
                          s.startSeconds - 1e9, s.endSeconds + 1e9, -.greatestFiniteMagnitude, .nan, .infinity, -.infinity] {
                    _ = spk.state(segment: i, secondsPastJ2000: t)
                    _ = spk.position(segment: i, secondsPastJ2000: t)
                }
            }
            return nil
        } catch {
            return error
        }
    }

    static func openSPK(_ bytes: [UInt8]) -> SPKError? { openSPK(KernelBuffer(copying: bytes)) }

    /// The kernels whose new-type segments the tests below damage (every type, both real and
    /// synthetic files).
    static let typedSamples = [
        "m2020_cruise_od138_v1.bsp", "synthetic-type01.bsp", "synthetic-type21.bsp", "synthetic-type08.bsp", "synthetic-type12.bsp",
        "m2020_surf_rover_loc_0000_0089_v1.bsp", "m2020_edl_v01.bsp", "synthetic-type18.bsp", "synthetic-type18-subtype2.bsp",
        "bc_mpo_fcp_Venus1SwingbyMTP_v01.bsp", "synthetic-type19.bsp",
    ]

    @Test("a type 1 and a type 13 kernel cut at every 8-byte boundary: refused as cut short, naming the file", arguments: ["m2020_cruise_od138_v1.bsp", "m2020_edl_v01.bsp"])
    func truncatedEverywhere(kernel: String) {
        let bytes = Self.sample(kernel)
        let whole = MutableKernelBytes(bytes)
        let dataEnd = ((Int(bytes[84]) | Int(bytes[85]) << 8 | Int(bytes[86]) << 16 | Int(bytes[87]) << 24) - 1) * 8
        var refused = 0
        for n in stride(from: 0, to: dataEnd, by: 8) {
            guard let e = Self.openSPK(whole.prefix(n)) else { Issue.record("\(kernel) cut to \(n) bytes: accepted"); continue }
            #expect(e.kind == .truncated && e.description.contains(Self.file), "\(n) bytes: \(e)")
            refused += 1
        }
        #expect(refused == dataEnd / 8 && refused > 1000)
        #expect(Self.openSPK(whole.prefix(dataEnd)) == nil)
        #expect(Self.openSPK(whole) == nil)
    }

    @Test("a segment whose summary ends it early, by every word count: refused, naming the segment", arguments: typedSamples)
    func segmentsCutShort(kernel: String) {
        let original = Self.sample(kernel)
        var refused = 0
        for s in SegmentSummary.all(original) where SPKKernel.evaluates(type: s.type) && s.type != 2 && s.type != 3 {
            let words = s.last - s.first + 1
            for cut in Array(1..<min(words, 150)) + Array(stride(from: 150, to: words, by: 97)) {
                var b = original
                putInt(&b, byte: s.summaryOffset + 36, s.last - cut)
                guard let e = Self.openSPK(b) else { Issue.record("\(kernel) \(s.label) less \(cut) words: accepted"); continue }
                #expect(e.description.contains("\(Self.file): \(s.label)"), "\(e)")
                refused += 1
            }
        }
        #expect(refused > 10, "\(kernel): \(refused)")
        print("[corruption] \(kernel): \(refused) segments cut short, all refused")
    }

    /// A named damage to one segment of a sample and what the error must say.
    struct Damage: CustomTestStringConvertible, Sendable {
        let what: String
        let kernel: String
        let segment: Int
        let kind: SPKError.Kind
        let words: String
        let change: @Sendable (inout [UInt8], SegmentSummary) -> Void
        var testDescription: String { "\(kernel) segment \(segment): \(what)" }
    }

    static let damages: [Damage] = {
        let cruise = "m2020_cruise_od138_v1.bsp" // type 1, 19 records of 71 words
        let edl = "m2020_edl_v01.bsp" // type 13: 990 states, window 2; then 2 states
        let esa = "bc_mpo_fcp_Venus1SwingbyMTP_v01.bsp" // type 19: 7 intervals, subtype 2, window 6
        @Sendable func record(_ s: SegmentSummary, _ k: Int, _ i: Int) -> Int { s.first + 71 * k + i } // type 1 word i of record k
        @Sendable func epoch(_ s: SegmentSummary, _ n: Int, _ size: Int, _ k: Int) -> Int { s.first + n * size + k } // after n records of `size`
        return [
            // Type 1.
            Damage(what: "one record too many", kernel: cruise, segment: 1, kind: .corrupt, words: "record count 20.0") { b, s in put(&b, s.last, 20) },
            Damage(what: "one record too few", kernel: cruise, segment: 1, kind: .corrupt, words: "18 records of 71 words") { b, s in put(&b, s.last, 18) },
            Damage(what: "a fractional record count", kernel: cruise, segment: 1, kind: .corrupt, words: "record count 19.5") { b, s in put(&b, s.last, 19.5) },
            Damage(what: "KQMAX1 16", kernel: cruise, segment: 1, kind: .corrupt, words: "record 3 of 19: integration order + 1 (KQMAX1) 16.0") { b, s in put(&b, record(s, 2, 67), 16) },
            Damage(what: "KQMAX1 1", kernel: cruise, segment: 1, kind: .corrupt, words: "(KQMAX1) 1.0") { b, s in put(&b, record(s, 2, 67), 1) },
            Damage(what: "an order of KQMAX1", kernel: cruise, segment: 1, kind: .corrupt, words: "record 2 of 19: order of axis 2 (KQ)") { b, s in put(&b, record(s, 1, 69), word(b, record(s, 1, 67))) },
            Damage(what: "a zero step size", kernel: cruise, segment: 1, kind: .corrupt, words: "record 1 of 19: step size 2 is 0.0") { b, s in put(&b, record(s, 0, 2), 0) },
            Damage(what: "a NaN reference epoch", kernel: cruise, segment: 1, kind: .corrupt, words: "record 7 of 19: reference epoch nan") { b, s in put(&b, record(s, 6, 0), .nan) },
            Damage(what: "final epochs out of order", kernel: cruise, segment: 1, kind: .corrupt, words: "final epoch 6 of 19") { b, s in put(&b, epoch(s, 19, 71, 5), word(b, epoch(s, 19, 71, 4))) },
            Damage(what: "a NaN final epoch", kernel: cruise, segment: 1, kind: .corrupt, words: "final epoch 19 of 19 is nan") { b, s in put(&b, epoch(s, 19, 71, 18), .nan) },
            Damage(what: "coverage past the last record", kernel: cruise, segment: 1, kind: .corrupt, words: "after the last record's final epoch") { b, s in
                put(&b, s.summaryOffset / 8 + 2, word(b, epoch(s, 19, 71, 18)) + 1)
            },
            Damage(what: "a directory entry off its epoch", kernel: "synthetic-type01.bsp", segment: 1, kind: .corrupt, words: "directory entry 1") { b, s in
                put(&b, s.last - 1, word(b, s.last - 1) - 1)
            },
            // Type 21.
            Damage(what: "MAXDIM 14", kernel: "synthetic-type21.bsp", segment: 1, kind: .corrupt, words: "difference table size MAXDIM 14.0") { b, s in put(&b, s.fromEnd(2), 14) },
            Damage(what: "MAXDIM 26", kernel: "synthetic-type21.bsp", segment: 2, kind: .corrupt, words: "MAXDIM 26.0") { b, s in put(&b, s.fromEnd(2), 26) },
            Damage(what: "MAXDIM not the records' size", kernel: "synthetic-type21.bsp", segment: 1, kind: .corrupt, words: "record count 20.0 is not a whole number in 1…18") { b, s in put(&b, s.fromEnd(2), 16) },
            Damage(what: "KQMAX1 above MAXDIM + 1", kernel: "synthetic-type21.bsp", segment: 3, kind: .corrupt, words: "(KQMAX1) 22.0") { b, s in put(&b, s.first + 87, 22) },
            // Types 8 and 12.
            Damage(what: "degree 0", kernel: "synthetic-type08.bsp", segment: 1, kind: .corrupt, words: "polynomial degree 0.0") { b, s in put(&b, s.fromEnd(2), 0) },
            Damage(what: "degree 28", kernel: "synthetic-type08.bsp", segment: 7, kind: .corrupt, words: "polynomial degree 28.0") { b, s in put(&b, s.fromEnd(2), 28) },
            Damage(what: "a zero step", kernel: "synthetic-type08.bsp", segment: 2, kind: .corrupt, words: "step 0.0 s") { b, s in put(&b, s.fromEnd(3), 0) },
            Damage(what: "a negative step", kernel: "synthetic-type08.bsp", segment: 2, kind: .corrupt, words: "step -240.0 s") { b, s in put(&b, s.fromEnd(3), -240) },
            Damage(what: "a NaN first epoch", kernel: "synthetic-type08.bsp", segment: 3, kind: .corrupt, words: "first epoch nan") { b, s in put(&b, s.fromEnd(4), .nan) },
            Damage(what: "coverage past the last state", kernel: "synthetic-type08.bsp", segment: 1, kind: .corrupt, words: "is not inside the states' epochs") { b, s in
                put(&b, s.fromEnd(3), 200)
            },
            Damage(what: "a state count that does not fit", kernel: "synthetic-type08.bsp", segment: 1, kind: .corrupt, words: "state count 41.0") { b, s in put(&b, s.last, 41) },
            Damage(what: "window 15", kernel: "synthetic-type12.bsp", segment: 6, kind: .corrupt, words: "window size − 1 14.0") { b, s in put(&b, s.fromEnd(2), 14) },
            // Types 9 and 13.
            Damage(what: "a window larger than the states", kernel: edl, segment: 2, kind: .corrupt, words: "2 states, fewer than the interpolation window of 3") { b, s in put(&b, s.fromEnd(2), 2) },
            Damage(what: "window 15", kernel: edl, segment: 1, kind: .corrupt, words: "window size − 1 14.0") { b, s in put(&b, s.fromEnd(2), 14) },
            Damage(what: "epochs out of order", kernel: edl, segment: 1, kind: .corrupt, words: "epoch 501 of 990") { b, s in put(&b, epoch(s, 990, 6, 500), word(b, epoch(s, 990, 6, 499))) },
            Damage(what: "a NaN epoch", kernel: edl, segment: 1, kind: .corrupt, words: "epoch 1 of 990 is nan") { b, s in put(&b, epoch(s, 990, 6, 0), .nan) },
            Damage(what: "a directory entry off its epoch", kernel: edl, segment: 1, kind: .corrupt, words: "directory entry 4 (") { b, s in
                put(&b, epoch(s, 990, 7, 3), word(b, epoch(s, 990, 7, 3)) + 0.5)
            },
            Damage(what: "coverage before the first epoch", kernel: edl, segment: 1, kind: .corrupt, words: "is not inside the states' epochs") { b, s in
                put(&b, s.summaryOffset / 8 + 1, word(b, epoch(s, 990, 6, 0)) - 1)
            },
            Damage(what: "one state too many", kernel: edl, segment: 1, kind: .corrupt, words: "991 states") { b, s in put(&b, s.last, 991) },
            Damage(what: "degree 28", kernel: "m2020_surf_rover_loc_0000_0089_v1.bsp", segment: 1, kind: .corrupt, words: "polynomial degree 28.0") { b, s in put(&b, s.fromEnd(2), 28) },
            Damage(what: "directory entry 2 off its epoch", kernel: "synthetic-type09.bsp", segment: 8, kind: .corrupt, words: "directory entry 2") { b, s in
                put(&b, s.fromEnd(3), word(b, s.fromEnd(3)) + 1e-3)
            },
            // Type 18.
            Damage(what: "subtype 3", kernel: "synthetic-type18.bsp", segment: 1, kind: .unsupported, words: "subtype 3.0") { b, s in put(&b, s.fromEnd(3), 3) },
            Damage(what: "an odd window", kernel: "synthetic-type18.bsp", segment: 2, kind: .corrupt, words: "window size 5 is odd") { b, s in put(&b, s.fromEnd(2), 5) },
            Damage(what: "window 10 for Hermite", kernel: "synthetic-type18.bsp", segment: 2, kind: .corrupt, words: "window size 10.0") { b, s in put(&b, s.fromEnd(2), 10) },
            Damage(what: "window 18 for Lagrange", kernel: "synthetic-type18.bsp", segment: 7, kind: .corrupt, words: "window size 18.0") { b, s in put(&b, s.fromEnd(2), 18) },
            Damage(what: "window 0", kernel: "synthetic-type18.bsp", segment: 5, kind: .corrupt, words: "window size 0.0") { b, s in put(&b, s.fromEnd(2), 0) },
            Damage(what: "one packet", kernel: "synthetic-type18.bsp", segment: 5, kind: .corrupt, words: "packet count 1.0") { b, s in put(&b, s.last, 1) },
            Damage(what: "a subtype that changes the packet size", kernel: "synthetic-type18.bsp", segment: 5, kind: .corrupt, words: "packet count 40.0") { b, s in put(&b, s.fromEnd(3), 0) },
            Damage(what: "epochs out of order", kernel: "synthetic-type18.bsp", segment: 3, kind: .corrupt, words: "epoch 101 of 250") { b, s in
                put(&b, epoch(s, 250, 12, 100), word(b, epoch(s, 250, 12, 99)) - 1)
            },
            Damage(what: "directory entry 2 off its epoch", kernel: "synthetic-type18.bsp", segment: 3, kind: .corrupt, words: "directory entry 2") { b, s in
                put(&b, s.fromEnd(4), word(b, s.fromEnd(4)) + 1)
            },
            Damage(what: "coverage past the last packet", kernel: "synthetic-type18.bsp", segment: 4, kind: .corrupt, words: "is not inside the packets' epochs") { b, s in
                put(&b, s.summaryOffset / 8 + 2, word(b, s.fromEnd(4)) + 1)
            },
            // Type 19.
            Damage(what: "a mini-segment pointer past the segment", kernel: esa, segment: 1, kind: .corrupt, words: "mini-segment pointer 3 of 8 5000.0") { b, s in put(&b, s.fromEnd(8), 5000) },
            Damage(what: "a mini-segment pointer before the segment", kernel: esa, segment: 1, kind: .corrupt, words: "mini-segment pointer 1 of 8 0.0") { b, s in put(&b, s.fromEnd(10), 0) },
            Damage(what: "mini-segment pointers out of order", kernel: esa, segment: 1, kind: .corrupt, words: "mini-segment pointer 3 of 8 (123) does not follow") { b, s in
                put(&b, s.fromEnd(8), 123)
            },
            Damage(what: "the stop pointer inside the boundary table", kernel: esa, segment: 1, kind: .corrupt, words: "mini-segment pointer 8 of 8 562.0") { b, s in put(&b, s.fromEnd(3), 562) },
            Damage(what: "a pointer that splits a mini-segment", kernel: esa, segment: 1, kind: .corrupt, words: "mini-segment 1 of 7: subtype 655998304.6") { b, s in put(&b, s.fromEnd(9), 209) },
            Damage(what: "boundary flag 2", kernel: esa, segment: 1, kind: .corrupt, words: "boundary flag 2.0") { b, s in put(&b, s.fromEnd(2), 2) },
            Damage(what: "an interval count past the tables", kernel: esa, segment: 1, kind: .corrupt, words: "interval count 300.0") { b, s in put(&b, s.last, 300) },
            Damage(what: "intervals out of order", kernel: esa, segment: 1, kind: .corrupt, words: "interval boundary 4 of 8") { b, s in put(&b, s.fromEnd(15), word(b, s.fromEnd(16))) },
            Damage(what: "an interval outside its mini-segment", kernel: esa, segment: 1, kind: .corrupt, words: "mini-segment 1 of 7: interval") { b, s in
                put(&b, s.fromEnd(17), word(b, s.fromEnd(17)) + 1)
            },
            Damage(what: "coverage before the first interval", kernel: esa, segment: 1, kind: .corrupt, words: "is not inside the intervals") { b, s in
                put(&b, s.fromEnd(18), word(b, s.summaryOffset / 8 + 1) + 1)
            },
            Damage(what: "a mini-segment of subtype 5", kernel: esa, segment: 1, kind: .unsupported, words: "mini-segment 2 of 7: subtype 5.0") { b, s in put(&b, s.first + 209 - 3, 5) },
            Damage(what: "a mini-segment window of 16", kernel: esa, segment: 1, kind: .corrupt, words: "mini-segment 3 of 7: window size 16.0") { b, s in put(&b, s.first + 275 - 2, 16) },
            Damage(what: "an interval directory off its boundary", kernel: "synthetic-type19.bsp", segment: 4, kind: .corrupt, words: "directory entry 1 (") { b, s in
                put(&b, s.fromEnd(154), word(b, s.fromEnd(154)) + 1)
            },
        ]
    }()

    @Test("damaged segments of every new type are refused with what is wrong and where", arguments: damages)
    func damagedSegments(_ d: Damage) throws {
        var b = Self.sample(d.kernel)
        let s = try #require(SegmentSummary.all(b).first { $0.number == d.segment })
        #expect(Self.openSPK(b) == nil, "the undamaged sample opens")
        d.change(&b, s)
        guard let e = Self.openSPK(b) else { Issue.record("accepted"); return }
        print("[corruption] \(d.what): \(e)")
        #expect(e.kind == d.kind, "\(e)")
        #expect(e.description.hasPrefix("ephemeris kernel \(Self.file): \(s.label)"), "\(e)")
        #expect(e.description.contains(d.words), "\(e)")
    }

    @Test("random single-bit flips anywhere in the new types' kernels: refused by name, or evaluated without trapping", arguments: typedSamples)
    func randomFlips(kernel: String) {
        let bytes = Self.sample(kernel)
        let k = MutableKernelBytes(bytes)
        var rng = SplitMix64(seed: UInt64(kernel.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        var refused = 0, accepted = 0
        // Every control word at the end of every segment gets its bits flipped; elsewhere, random
        // bits anywhere past the file record.
        var targets: [(Int, Int)] = []
        for s in SegmentSummary.all(bytes) {
            for w in max(s.first, s.last - 3)...s.last {
                for bit in 0..<64 { targets.append(((w - 1) * 8 + bit / 8, bit % 8)) }
            }
        }
        for _ in 0..<1500 {
            targets.append((1024 + Int(rng.next() % UInt64(bytes.count - 1024)), Int(rng.next() % 8)))
        }
        for (byte, bit) in targets {
            k.flip(byte: byte, bit: bit)
            if let e = Self.openSPK(k) {
                refused += 1
                #expect(e.description.hasPrefix("ephemeris kernel \(Self.file): "), "\(e)")
            } else {
                accepted += 1
            }
            k.flip(byte: byte, bit: bit)
        }
        #expect(Self.openSPK(k) == nil)
        #expect(refused > 0 && refused + accepted == targets.count)
        print("[corruption] \(kernel): \(targets.count) single-bit flips, \(refused) refused, \(accepted) harmless or in the data")
        // Then all of the random flips at once, accumulated.
        for _ in 0..<2000 {
            k.flip(byte: 1024 + Int(rng.next() % UInt64(bytes.count - 1024)), bit: Int(rng.next() % 8))
        }
        _ = Self.openSPK(k)
    }
}
