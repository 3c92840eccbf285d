import Foundation
import HTTPTestSupport
import Testing
@testable import SolarSystemAPI
import Ephemeris

/// `ShortestDouble` must write exactly what `Double.description` writes, and that text must
/// read back to the same double.
@Suite("ShortestDouble: description's bytes without a String")
struct ShortestDoubleTests {
    static func text(_ v: Double) -> String {
        var out: [UInt8] = []
        ShortestDouble.append(v, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Values that disagree with `description` or do not round-trip (at most a few reported).
    static func failures(_ values: some Sequence<Double>) -> [String] {
        var bad: [String] = []
        for v in values {
            let s = text(v)
            if s != v.description || (v.isFinite && Double(s)?.bitPattern != v.bitPattern) {
                if bad.count < 5 { bad.append("\(v.description) (0x\(String(v.bitPattern, radix: 16))) written \(s)") } else { bad.append("…"); break }
            }
        }
        return bad
    }

    @Test("edge values: zeros, subnormals, every power of two and ten with neighbours, integers, extremes, non-finite")
    func edges() {
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 0.2, 0.1 + 0.2, 1e-4, 1e-5, 0x1p53, 0x1p53.nextUp, 0x1p53.nextDown, 0x1p54,
                                1e15, 1e16, 1e22, 1e23, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                                .leastNormalMagnitude, Double.leastNormalMagnitude.nextDown, .greatestFiniteMagnitude,
                                -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, 2_461_001.5, 2_457_023.500_800_741]
        for e in -325...308 {
            let p = Double("1e\(e)")!
            values += [p, p.nextUp, p.nextDown, -p, 5 * p, 9.999_999_999_999_999 * p]
        }
        for e in -1074...1023 {
            let p = Double(sign: .plus, exponent: e, significand: 1)
            values += [p, p.nextUp, p.nextDown, -p, p * 1.5]
        }
        for i in 0..<200_000 {
            values += [Double(i), -Double(i), Double(i) / 8, Double(i) * 1e10 + 0.5, Double(i) * 1_000_003]
        }
        for k in 0..<100_000 { values.append(Double(bitPattern: UInt64(k))) }          // smallest subnormals
        for k in 0..<100_000 { values.append(Double(bitPattern: (1 << 52) - UInt64(k))) } // largest subnormals
        #expect(Self.failures(values).isEmpty, "\(Self.failures(values))")
    }

    /// The random tests' seed: `SHORTEST_DOUBLE_SEED` to replay a failure, else a new one each
    /// run (so runs cover different values); every failure message names it.
    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["SHORTEST_DOUBLE_SEED"], let seed = UInt64(text) { return seed }
        var system = SystemRandomNumberGenerator()
        return system.next()
    }()

    @Test("three million random bit patterns, a million uniform values in ±10⁴ and a million subnormals")
    func random() {
        let seed = Self.seed
        print("[shortest] random values from seed \(seed) (SHORTEST_DOUBLE_SEED=\(seed) replays them)")
        var rng = SplitMix64(seed: seed)
        let bits = (0..<3_000_000).lazy.map { _ in Double(bitPattern: rng.next()) }
        let badBits = Self.failures(bits) // once: the lazy values draw from the generator
        #expect(badBits.isEmpty, "seed \(seed): \(badBits)")
        var rng2 = SplitMix64(seed: seed &+ 1)
        let uniform = (0..<1_000_000).lazy.map { _ in Double.random(in: -1e4...1e4, using: &rng2) }
        let badUniform = Self.failures(uniform)
        #expect(badUniform.isEmpty, "seed \(seed): \(badUniform)")
        var rng3 = SplitMix64(seed: seed &+ 2)
        let subnormal = (0..<1_000_000).lazy.map { _ in Double(bitPattern: UInt64.random(in: 1..<(1 << 52), using: &rng3)) * (Bool.random(using: &rng3) ? 1 : -1) }
        let badSubnormal = Self.failures(subnormal)
        #expect(badSubnormal.isEmpty, "seed \(seed): \(badSubnormal)")
    }

    @Test("the first power-of-five entries are 5^i normalised to 125 bits; the tables have Ryū's sizes")
    func tables() {
        // 5^i < 2^125 fits the first entries unshifted apart from the normalisation.
        for i in 0..<50 {
            var p: UInt64 = 1
            var exact = true
            for _ in 0..<i { let (m, o) = p.multipliedReportingOverflow(by: 5); if o { exact = false; break }; p = m }
            guard exact else { break }
            let bits = 64 - p.leadingZeroBitCount
            let entry = ShortestDouble.pow5Split[i]
            // entry = p << (125 − bits): its top bits are p.
            let shift = 125 - bits
            let high = shift >= 64 ? p << UInt64(shift - 64) : (p >> UInt64(64 - shift))
            #expect(entry.high == high, "5^\(i)")
            #expect(ShortestDouble.pow5Bits(i) == bits, "bits of 5^\(i)")
        }
        #expect(ShortestDouble.pow5Split.count == 326 && ShortestDouble.pow5InverseSplit.count == 342)
    }

    @Test("JSONWriter.number: integers below 10¹⁵ bare, everything else as description, all round-tripping")
    func jsonNumbers() {
        var rng = SplitMix64(seed: Self.seed)
        for v in (0..<100_000).map({ _ in Double.random(in: -1e6...1e6, using: &rng) }) + [3, -3, 1e15, 1e16, 0.5, -0.0] {
            var w = JSONWriter()
            w.number(v)
            let s = String(decoding: w.bytes, as: UTF8.self)
            let expected = v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : v.description
            #expect(s == expected, "seed \(Self.seed)")
            #expect(Double(s) == v, "seed \(Self.seed)")
        }
    }

    /// Samples of a planet, a moon (scene frame: odd values) and the Sun (zeros), at instants with
    /// nanoseconds, milliseconds and none.
    static func seriesRows() throws -> [(Instant, PositionEntry)] {
        let service = EphemerisService(catalogue: try Catalogue(json: RepositoryFiles.bytes("Resources/bodies.json")))
        let start = try TimeScale.parse("2015-01-01T00:00:00.0000015Z")
        var rows: [(Instant, PositionEntry)] = []
        for (body, selection) in [(BodyID.mars, FrameSelection()), (.io, FrameSelection(frame: .scene, center: .jupiter)), (.sun, FrameSelection(units: .km))] {
            for k in 0..<200 {
                let t = start.adding(seconds: Double(k) * [3_600.25, 0.0000005, 86_400][k % 3])
                rows.append((t, service.sample(body, at: t, selection)))
            }
        }
        return rows
    }

    @Test("a series' JSON rows are the bytes the generic writer gives, in one chunk or many")
    func jsonRowsAsWriter() throws {
        let rows = try Self.seriesRows()
        var w = JSONWriter()
        w.array { w in
            for (t, e) in rows {
                w.object { w in
                    PositionsResult.writeTime(t, into: &w)
                    PositionsResult.writeVectors(e, into: &w)
                }
            }
        }
        let whole = [UInt8(ascii: "[")] + SeriesEncoding.jsonRows(rows) + [UInt8(ascii: "]")]
        #expect(whole == w.bytes)
        var document = JSONWriter.Stream()
        document.openArray()
        var chunked = document.chunk()
        for piece in [rows[..<250], rows[250..<250], rows[250...]] {
            document.write(elements: SeriesEncoding.jsonRows(Array(piece)))
            chunked += document.chunk()
        }
        document.close()
        chunked += document.chunk()
        #expect(chunked == w.bytes)
    }

    @Test("a series' CSV rows are the bytes string interpolation wrote")
    func csvRowsAsInterpolation() throws {
        let rows = try Self.seriesRows()
        var old = ""
        for (t, e) in rows {
            let p = e.position, v = e.velocity
            old += "\(t.iso8601),\(t.jdTT),\(t.jdTDB),\(p.x),\(p.y),\(p.z),\(v.x),\(v.y),\(v.z),\(e.distance)\n"
        }
        #expect(SeriesEncoding.csvRows(rows) == Array(old.utf8))
    }
}
