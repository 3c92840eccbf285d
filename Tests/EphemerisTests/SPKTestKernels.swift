import Foundation
@testable import Ephemeris

/// SPK files built in memory, in either byte order: synthetic segments with known
/// coefficients, excerpts of the bundled DE440, and the bundled kernel byte-swapped.
struct SPKWriter {
    struct Segment {
        var target: Int
        var center: Int
        var frame = 1
        var type = 2
        /// Coverage, TDB seconds past J2000 (default: the records' span).
        var start: Double?
        var end: Double?
        var initial: Double
        var interval: Double
        /// Coefficients per record, per component (3 for type 2, 6 for type 3), lowest first;
        /// each record gets its midpoint and radius from `initial` and `interval`.
        var records: [[[Double]]]
        var name = "TEST-SEGMENT"

        var words: [Double] {
            var out: [Double] = []
            for (k, components) in records.enumerated() {
                out.append(initial + (Double(k) + 0.5) * interval)
                out.append(interval / 2)
                for c in components { out += c }
            }
            let rsize = records.isEmpty ? 0 : 2 + records[0].reduce(0) { $0 + $1.count }
            return out + [initial, interval, Double(rsize), Double(records.count)]
        }
    }

    var segments: [Segment]
    var bigEndian = false
    var internalName = "SolarSystem test kernel"

    func bytes() -> [UInt8] {
        precondition(segments.count <= 25, "one summary record holds 25 SPK summaries")
        var data: [Double] = []
        var addresses: [(Int, Int)] = []
        let firstWord = 3 * 128 + 1 // after the file, summary and name records
        for s in segments {
            let w = s.words
            addresses.append((firstWord + data.count, firstWord + data.count + w.count - 1))
            data += w
        }
        var out = [UInt8](repeating: 0, count: 3 * 1024)
        func put(_ s: String, at offset: Int, length: Int) {
            let b = Array(s.utf8.prefix(length)) + [UInt8](repeating: 0x20, count: max(0, length - s.utf8.count))
            out.replaceSubrange(offset..<(offset + length), with: b)
        }
        func putInt(_ v: Int, at offset: Int) {
            let bits = UInt32(bitPattern: Int32(v))
            withUnsafeBytes(of: bigEndian ? bits.bigEndian : bits.littleEndian) { out.replaceSubrange(offset..<(offset + 4), with: $0) }
        }
        func putDouble(_ v: Double, at offset: Int) {
            let bits = v.bitPattern
            withUnsafeBytes(of: bigEndian ? bits.bigEndian : bits.littleEndian) { out.replaceSubrange(offset..<(offset + 8), with: $0) }
        }
        put("DAF/SPK ", at: 0, length: 8)
        putInt(2, at: 8)
        putInt(6, at: 12)
        put(internalName, at: 16, length: 60)
        putInt(2, at: 76)
        putInt(2, at: 80)
        putInt(firstWord + data.count, at: 84)
        put(bigEndian ? "BIG-IEEE" : "LTL-IEEE", at: 88, length: 8)
        out.replaceSubrange(DAFFile.ftpOffset..<(DAFFile.ftpOffset + DAFFile.ftpValidation.count), with: DAFFile.ftpValidation)
        putDouble(0, at: 1024)
        putDouble(0, at: 1032)
        putDouble(Double(segments.count), at: 1040)
        for (i, s) in segments.enumerated() {
            let at = 1024 + 24 + i * 40
            let span = (s.initial, s.initial + Double(s.records.count) * s.interval)
            putDouble(s.start ?? span.0, at: at)
            putDouble(s.end ?? span.1, at: at + 8)
            for (j, v) in [s.target, s.center, s.frame, s.type, addresses[i].0, addresses[i].1].enumerated() { putInt(v, at: at + 16 + 4 * j) }
            put(s.name, at: 2048 + i * 40, length: 40)
        }
        out += [UInt8](repeating: 0, count: data.count * 8)
        for (i, v) in data.enumerated() { putDouble(v, at: 3 * 1024 + i * 8) }
        // Whole records, as DAF files are written.
        out += [UInt8](repeating: 0, count: (1024 - out.count % 1024) % 1024)
        return out
    }

    /// `count` records of every segment of `kernel`, starting with the one holding `seconds`.
    static func excerpt(of kernel: SPKKernel, at seconds: Double, records count: Int) -> SPKWriter {
        var list: [Segment] = []
        for (i, s) in kernel.segments.enumerated() where s.type == 2 || s.type == 3 {
            let r = kernel.records[i]
            let components = s.type == 2 ? 3 : 6
            let first = max(0, min(r.recordCount - count, Int(((seconds - r.initialSeconds) / r.intervalSeconds).rounded(.down))))
            var records: [[[Double]]] = []
            for k in first..<(first + count) {
                let at = r.dataOffset + k * r.recordWords * 8 + 16
                records.append((0..<components).map { c in (0..<r.coefficientCount).map { kernel.reader.double(at: at + (c * r.coefficientCount + $0) * 8) } })
            }
            list.append(Segment(target: s.target, center: s.center, frame: s.frame, type: s.type,
                                initial: r.initialSeconds + Double(first) * r.intervalSeconds, interval: r.intervalSeconds, records: records, name: s.name))
        }
        return SPKWriter(segments: list)
    }

    /// A little-endian SPK (one summary record chain) rewritten big-endian, or back: file-record
    /// integers, summary doubles and integers and every data word swapped, names unchanged.
    static func swappingByteOrder(_ input: [UInt8]) -> [UInt8] {
        var b = input
        let fromBig = String(decoding: b[88..<96], as: UTF8.self) == "BIG-IEEE"
        func int(_ offset: Int) -> Int {
            var bits: UInt32 = 0
            for i in 0..<4 { bits |= UInt32(b[offset + i]) << (8 * i) }
            return Int(Int32(bitPattern: fromBig ? bits.byteSwapped : bits))
        }
        func double(_ offset: Int) -> Double {
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(b[offset + i]) << (8 * i) }
            return Double(bitPattern: fromBig ? bits.byteSwapped : bits)
        }
        var summaryRecords: [Int: Int] = [:] // record → summaries in it
        var r = int(76)
        while r != 0, summaryRecords.count < 1000 {
            summaryRecords[r] = Int(double((r - 1) * 1024 + 16))
            r = Int(double((r - 1) * 1024))
        }
        b.withUnsafeMutableBytes { raw in
            func swap8(_ o: Int) { raw.storeBytes(of: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self).byteSwapped, toByteOffset: o, as: UInt64.self) }
            func swap4(_ o: Int) { raw.storeBytes(of: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self).byteSwapped, toByteOffset: o, as: UInt32.self) }
            for r in 2...(raw.count / 1024) {
                let o = (r - 1) * 1024
                if let n = summaryRecords[r] {
                    for k in 0..<3 { swap8(o + 8 * k) }
                    for i in 0..<n {
                        let at = o + 24 + i * 40
                        swap8(at); swap8(at + 8)
                        for j in 0..<6 { swap4(at + 16 + 4 * j) }
                    }
                } else if summaryRecords[r - 1] == nil {
                    for k in 0..<128 { swap8(o + 8 * k) }
                } // else: a name record, characters
            }
            for offset in [8, 12, 76, 80, 84] { swap4(offset) }
        }
        b.replaceSubrange(88..<96, with: Array((fromBig ? "LTL-IEEE" : "BIG-IEEE").utf8))
        return b
    }
}

/// Kernel bytes that a test may change in place (bit flips), then parse again.
final class MutableKernelBytes: KernelBytes, @unchecked Sendable {
    let storage: UnsafeMutableRawBufferPointer
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(storage) }

    init(_ source: [UInt8]) {
        storage = .allocate(byteCount: source.count, alignment: 16)
        storage.copyBytes(from: source)
    }

    /// The first `count` bytes, as a separate kernel view over the same memory (truncation).
    func prefix(_ count: Int) -> KernelBytes { PrefixBytes(owner: self, count: count) }

    func flip(byte: Int, bit: Int) { storage[byte] ^= UInt8(1 << bit) }

    deinit { storage.deallocate() }
}

final class PrefixBytes: KernelBytes, @unchecked Sendable {
    let owner: MutableKernelBytes
    let bytes: UnsafeRawBufferPointer
    init(owner: MutableKernelBytes, count: Int) {
        self.owner = owner
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(owner.storage)[0..<count])
    }
}
