import Foundation
import Testing
@testable import Ephemeris

/// One kernel's reference states from CSPICE (`scripts/make-spk-fixtures.py`).
struct SPKFixture: Decodable {
    struct About: Decodable {
        let script: String
        let spiceypy: String
        let cspice: String
        let synthetic: Bool
        /// Set when CSPICE read a copy padded to whole 1024-byte records (see the script).
        let padding: String?
    }

    struct Segment: Decodable {
        let number: Int
        let target: Int
        let center: Int
        let frame: Int
        let type: Int
        let subtype: Int?
        let start: Double
        let end: Double
        let name: String
        /// [et, x, y, z, vx, vy, vz]: TDB seconds past J2000, km, km/s.
        let cases: [[Double]]
    }

    let about: About
    let kernel: String
    let sha256: String
    let bytes: Int
    let segments: [Segment]

    static let directory = "Tests/EphemerisTests/Fixtures/spk"
    static let kernels = "Tests/EphemerisTests/Fixtures/spk-samples"

    /// The fixtures' file names, one per kernel (`<kernel>.json`).
    static let names: [String] = {
        let path = TestEngine.root.appendingPathComponent(directory).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".bsp.json") }.sorted()
    }()

    static func load(_ name: String) throws -> SPKFixture {
        try JSONDecoder().decode(SPKFixture.self, from: Data(TestEngine.repositoryFile("\(directory)/\(name)")))
    }

    /// The kernel's bytes as committed.
    var kernelBytes: [UInt8] { TestEngine.repositoryFile("\(Self.kernels)/\(kernel)") }
}

@Suite("SPK reader against CSPICE N0067 (spkpvn): every fixture epoch of every segment of every kernel")
struct SPKReferenceTests {
    /// The tolerances the reader promises against NAIF's.
    static let position = km(0.001)
    static let velocity = kmPerSecond(1e-6)

    @Test("every kernel has its fixture, and the fixtures hold as many states as they were made with")
    func inventory() throws {
        let path = TestEngine.root.appendingPathComponent(SPKFixture.kernels).path
        let kernels = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".bsp") }.sorted()
        #expect(kernels.count == 19, "\(kernels)")
        #expect(SPKFixture.names == kernels.map { "\($0).json" })
        var total = 0, types: Set<String> = []
        for name in SPKFixture.names {
            let f = try SPKFixture.load(name)
            #expect(f.about.cspice == "CSPICE_N0067" && f.about.script == "scripts/make-spk-fixtures.py")
            for s in f.segments {
                total += s.cases.count
                types.insert(s.subtype.map { "\(s.type).\($0)" } ?? "\(s.type)")
            }
        }
        // Every evaluated type, and every type 18 subtype, is among them.
        #expect(types == ["1", "2", "3", "8", "9", "12", "13", "18.0", "18.1", "18.2", "19", "21"])
        #expect(total == 24_621)
    }

    @Test("states within 1 m and 1 mm/s of CSPICE's, at the ends of coverage, on nodes and boundaries, and between", arguments: SPKFixture.names)
    func matchesCSPICE(fixture name: String) throws {
        let f = try SPKFixture.load(name)
        let bytes = f.kernelBytes
        #expect(bytes.count == f.bytes)
        let spk = try SPKKernel(bytes: KernelBuffer(copying: bytes), file: f.kernel)
        #expect(spk.segments.count == f.segments.count)
        var checked = 0
        var worst: [String: (cases: Int, position: Double, velocity: Double)] = [:]
        for s in f.segments {
            let i = s.number - 1
            let segment = spk.segments[i]
            #expect(segment.target == s.target && segment.center == s.center && segment.frame == s.frame && segment.type == s.type, "\(name) segment \(s.number)")
            #expect(segment.startSeconds == s.start && segment.endSeconds == s.end && segment.isEvaluated)
            // The exact ends of the coverage are among the cases.
            #expect(s.cases.first?[0] == s.start && s.cases.contains { $0[0] == s.end }, "\(name) segment \(s.number): ends")
            let key = s.subtype.map { "\(s.type).\($0)" } ?? "\(s.type)"
            for c in s.cases {
                let t = c[0]
                let expected = (Vector3(c[1], c[2], c[3]), Vector3(c[4], c[5], c[6]))
                let state = spk.state(segment: i, secondsPastJ2000: t)
                let dp = (state.positionKm - expected.0).length, dv = (state.velocityKmPerSecond - expected.1).length
                let dq = (spk.position(segment: i, secondsPastJ2000: t) - expected.0).length
                if !(dp <= Self.position && dq <= Self.position && dv <= Self.velocity) {
                    Issue.record("\(name) segment \(s.number) (type \(key)) at \(t): Δr \(dp * 1000) m (position path \(dq * 1000) m), Δv \(dv * 1e6) mm/s")
                }
                let w = worst[key] ?? (0, 0, 0)
                worst[key] = (w.cases + 1, max(w.position, dp, dq), max(w.velocity, dv))
                checked += 1
            }
        }
        let recorded = f.segments.reduce(0) { $0 + $1.cases.count }
        #expect(checked == recorded && checked >= 220 * f.segments.count, "\(name): \(checked) of \(recorded) states checked")
        for (key, w) in worst.sorted(by: { $0.key < $1.key }) {
            print(String(format: "[spk-reference] %@ type %@: %d states, max |Δr| %.3g m, max |Δv| %.3g mm/s", name, key, w.cases, w.position * 1000, w.velocity * 1e6))
        }
    }

    /// The first and last epochs a segment's data reach: a window chosen just outside them is
    /// the one chosen at them. Records (types 1, 2, 3, 21) extend past any end: +∞ and −∞, so
    /// both ends of their coverage count as data ends.
    static func dataEnds(_ spk: SPKKernel, _ i: Int) -> (Double, Double) {
        let r = spk.reader
        switch spk.models[i] {
        case .none, .differenceLines: return (.infinity, -.infinity)
        case .discreteStates(let m):
            if let e = m.epochs { return (e.epoch(r, 0), e.epoch(r, e.count - 1)) }
            return (m.start, m.start + Double(m.count - 1) * m.step)
        case .packets(let m): return (m.epochs.epoch(r, 0), m.epochs.epoch(r, m.count - 1))
        case .piecewise(let m):
            let first = m.intervals[0], last = m.intervals[m.intervals.count - 1]
            return (first.epochs.epoch(r, 0), last.epochs.epoch(r, last.count - 1))
        }
    }

    @Test("outside the coverage the nearest record or window extrapolates (continuing CSPICE's state where the data end); NaN gives NaN")
    func outsideCoverage() throws {
        var continued = 0, segments = 0
        for name in SPKFixture.names {
            let f = try SPKFixture.load(name)
            let spk = try SPKKernel(bytes: KernelBuffer(copying: f.kernelBytes), file: f.kernel)
            for s in f.segments {
                let i = s.number - 1
                let (first, last) = Self.dataEnds(spk, i)
                for (t, sign, atDataEnd) in [(s.start, -1.0, s.start <= first), (s.end, 1.0, s.end >= last)] where atDataEnd {
                    guard let c = s.cases.first(where: { $0[0] == t }) else { Issue.record("\(name) segment \(s.number): no case at \(t)"); continue }
                    // A millisecond beyond the end: where the state was, moved on by its velocity.
                    let beyond = t + sign * 1e-3
                    let p = spk.position(segment: i, secondsPastJ2000: beyond)
                    let expected = Vector3(c[1], c[2], c[3]) + Vector3(c[4], c[5], c[6]) * (beyond - t)
                    #expect((p - expected).length <= Self.position, "\(name) segment \(s.number) at \(beyond): \((p - expected).length * 1000) m")
                    continued += 1
                }
                // NaN propagates (a velocity that does not depend on time, as a linear series
                // has, stays what it is); the rest only must not trap.
                #expect(spk.state(segment: i, secondsPastJ2000: .nan).positionKm.x.isNaN, "\(name) segment \(s.number)")
                for t in [Double.infinity, -.infinity, -.greatestFiniteMagnitude, s.start - 1e9, s.end + 1e9] {
                    _ = spk.state(segment: i, secondsPastJ2000: t)
                }
                segments += 1
            }
        }
        // Coverage that ends inside the data (padding, or a window mid-table) is not continued:
        // the window chosen beyond it may differ, in CSPICE too.
        #expect(segments == 106 && continued == 159, "\(segments) segments, \(continued) ends continued")
    }

    @Test("de441-1969.bsp stops 8 bytes into a DAF record: read in place, as CSPICE reads it padded to whole records")
    func fileEndingInsideARecord() throws {
        let f = try SPKFixture.load("de441-1969.bsp.json")
        let bytes = f.kernelBytes
        #expect(bytes.count % 1024 == 8 && f.about.padding != nil)
        let cut = try SPKKernel(bytes: KernelBuffer(copying: bytes), file: f.kernel)
        let padded = try SPKKernel(bytes: KernelBuffer(copying: bytes + [UInt8](repeating: 0, count: 1016)), file: f.kernel)
        // The last segment's record count is the file's last word.
        let last = cut.records[27]
        #expect(last.recordCount == 1 && (last.dataOffset + last.recordWords * 8 + 32) == bytes.count)
        for s in f.segments {
            for c in s.cases {
                let a = cut.state(segment: s.number - 1, secondsPastJ2000: c[0]), b = padded.state(segment: s.number - 1, secondsPastJ2000: c[0])
                #expect(a.positionKm == b.positionKm && a.velocityKmPerSecond == b.velocityKmPerSecond)
            }
        }
    }

    @Test("a type 18 subtype 2 segment reads exactly as the same packets in a one-interval type 19 segment")
    func subtype2Twin() throws {
        let a = try SPKFixture.load("synthetic-type18-subtype2.bsp.json"), b = try SPKFixture.load("synthetic-type18-subtype2-as-type19.bsp.json")
        let single = try SPKKernel(bytes: KernelBuffer(copying: a.kernelBytes), file: a.kernel)
        let twin = try SPKKernel(bytes: KernelBuffer(copying: b.kernelBytes), file: b.kernel)
        var compared = 0
        for (i, s) in a.segments.enumerated() {
            #expect(single.segments[i].type == 18 && twin.segments[i].type == 19 && s.subtype == 2)
            for c in s.cases {
                let x = single.state(segment: i, secondsPastJ2000: c[0]), y = twin.state(segment: i, secondsPastJ2000: c[0])
                #expect(x.positionKm == y.positionKm && x.velocityKmPerSecond == y.velocityKmPerSecond)
                compared += 1
            }
        }
        #expect(compared == 722)
    }
}
