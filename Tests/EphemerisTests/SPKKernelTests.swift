import Foundation
import Testing
@testable import Ephemeris

/// The Chebyshev polynomial T_k and its derivative at x in (−1, 1), from the cosine form
/// (independent of the recurrences the reader uses).
private func chebyshevT(_ k: Int, _ x: Double) -> Double { cos(Double(k) * acos(x)) }
private func chebyshevTPrime(_ k: Int, _ x: Double) -> Double {
    let theta = acos(x)
    return Double(k) * sin(Double(k) * theta) / sin(theta)
}

@Suite("SPK reader: records, Chebyshev series, byte order")
struct SPKKernelTests {
    /// Two records of 1000 s from t = 0; x, y, z series of four coefficients.
    static let type2 = SPKWriter.Segment(target: 499, center: 4, initial: 0, interval: 1000, records: [
        [[1, 2, 3, 4], [0, 1, 0, 0], [5, 0, 0, -1]],
        [[-1, 0.5, 0.25, 0.125], [10, -1, 2, 0.5], [0, 0, 1, 0]],
    ])

    static func expected(_ s: SPKWriter.Segment, _ t: Double) -> (Vector3, Vector3) {
        let k = min(s.records.count - 1, Int((t - s.initial) / s.interval))
        let mid = s.initial + (Double(k) + 0.5) * s.interval, radius = s.interval / 2
        let x = (t - mid) / radius
        func value(_ c: [Double]) -> Double { c.enumerated().reduce(0) { $0 + $1.element * chebyshevT($1.offset, x) } }
        func rate(_ c: [Double]) -> Double { c.enumerated().reduce(0) { $0 + $1.element * chebyshevTPrime($1.offset, x) } / radius }
        let r = s.records[k]
        if s.type == 3 { return (Vector3(value(r[0]), value(r[1]), value(r[2])), Vector3(value(r[3]), value(r[4]), value(r[5]))) }
        return (Vector3(value(r[0]), value(r[1]), value(r[2])), Vector3(rate(r[0]), rate(r[1]), rate(r[2])))
    }

    func open(_ w: SPKWriter) throws -> SPKKernel {
        try SPKKernel(bytes: KernelBuffer(copying: w.bytes()), file: "test.bsp")
    }

    @Test("type 2: positions are the Chebyshev sums, velocities their derivative over the radius", arguments: [false, true])
    func type2Series(bigEndian: Bool) throws {
        let spk = try open(SPKWriter(segments: [Self.type2], bigEndian: bigEndian))
        #expect(spk.isBigEndian == bigEndian)
        #expect(spk.segments.count == 1 && spk.segments[0].coefficientCount == 4 && spk.segments[0].target == 499 && spk.segments[0].center == 4)
        for t in [1.0, 123.4, 499.9, 777.0, 1001.0, 1500.0, 1999.0] {
            let (p, v) = Self.expected(Self.type2, t)
            let s = spk.state(segment: 0, secondsPastJ2000: t)
            #expect((s.positionKm - p).length < km(1e-12), "position at \(t)")
            #expect((s.velocityKmPerSecond - v).length < kmPerSecond(1e-12), "velocity at \(t)")
            #expect((spk.position(segment: 0, secondsPastJ2000: t) - p).length < km(1e-12), "position-only path at \(t)")
        }
    }

    @Test("record boundaries: a shared end belongs to the later record, the segment's end to the last")
    func boundaries() throws {
        let spk = try open(SPKWriter(segments: [Self.type2]))
        // At t = 1000 the second record starts (x = −1): T_k(−1) = (−1)^k.
        let c = Self.type2.records[1]
        let startOfSecond = Vector3(c[0][0] - c[0][1] + c[0][2] - c[0][3], c[1][0] - c[1][1] + c[1][2] - c[1][3], c[2][0] - c[2][1] + c[2][2] - c[2][3])
        #expect((spk.position(segment: 0, secondsPastJ2000: 1000) - startOfSecond).length < 1e-12)
        // At t = 2000 the last record ends (x = 1): the sum of the coefficients.
        let end = Vector3(c[0].reduce(0, +), c[1].reduce(0, +), c[2].reduce(0, +))
        #expect((spk.position(segment: 0, secondsPastJ2000: 2000) - end).length < 1e-12)
        // At t = 0 the first record starts.
        let a = Self.type2.records[0]
        #expect((spk.position(segment: 0, secondsPastJ2000: 0) - Vector3(a[0][0] - a[0][1] + a[0][2] - a[0][3], a[1][0] - a[1][1] + a[1][2] - a[1][3], a[2][0] - a[2][1] + a[2][2] - a[2][3])).length < 1e-12)
    }

    @Test("which SPK types are evaluated, and how errors name them")
    func typeNames() throws {
        #expect([1, 2, 3, 8, 9, 12, 13, 18, 19, 21].allSatisfy { SPKKernel.evaluates(type: $0) })
        #expect(![0, 4, 5, 10, 14, 15, 17, 20, 99].contains { SPKKernel.evaluates(type: $0) })
        #expect(SPKKernel.describe(type: 13) == "type 13 (Hermite interpolation, unequal steps)")
        #expect(SPKKernel.describe(type: 99) == "type 99")
        let spk = try open(SPKWriter(segments: [Self.type2]))
        #expect(spk.segments[0].typeDescription == "type 2 (Chebyshev, position)" && spk.segments[0].isEvaluated)
    }

    @Test("type 3: velocity coefficients of their own", arguments: [false, true])
    func type3Series(bigEndian: Bool) throws {
        let seg = SPKWriter.Segment(target: 3, center: 0, type: 3, initial: -5000, interval: 2000, records: [
            [[1, 2, 3], [4, 5, 6], [7, 8, 9], [0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]],
            [[-1, 2, -3], [4, -5, 6], [-7, 8, -9], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
        ])
        let spk = try open(SPKWriter(segments: [seg], bigEndian: bigEndian))
        #expect(spk.segments[0].coefficientCount == 3)
        for t in [-4999.0, -4000.5, -2500.0, -1000.25] {
            let (p, v) = Self.expected(seg, t)
            let s = spk.state(segment: 0, secondsPastJ2000: t)
            #expect((s.positionKm - p).length < 1e-12 && (s.velocityKmPerSecond - v).length < 1e-12, "at \(t)")
        }
    }

    @Test("the bundled DE440 read big-endian gives the same numbers, bit for bit")
    func bigEndianDE440() throws {
        let swapped = SPKWriter.swappingByteOrder(TestEngine.kernelBytes)
        let big = try PlanetaryKernel(bytes: KernelBuffer(copying: swapped), file: "de440-big-endian.bsp")
        let little = TestEngine.kernel
        #expect(big.spk.isBigEndian && !little.spk.isBigEndian)
        #expect(big.spanSeconds == little.spanSeconds && big.label == "DE440")
        // The round trip restores the original file exactly.
        #expect(SPKWriter.swappingByteOrder(swapped) == TestEngine.kernelBytes)
        let span = little.spanSeconds
        for f in stride(from: 0.0, through: 1.0, by: 0.0625) {
            let t = span.lowerBound + f * (span.upperBound - span.lowerBound)
            for i in little.spk.segments.indices {
                let a = little.spk.state(segment: i, secondsPastJ2000: t), b = big.spk.state(segment: i, secondsPastJ2000: t)
                #expect(a.positionKm == b.positionKm && a.velocityKmPerSecond == b.velocityKmPerSecond, "segment \(i) at \(t)")
            }
        }
    }

    @Test("the fuzzer's seeds are DE440 excerpts that read exactly as the bundled kernel, in both byte orders")
    func fuzzSeeds() throws {
        let dir = "Fuzz/SPKReader/seeds"
        let names = try FileManager.default.contentsOfDirectory(atPath: TestEngine.root.appendingPathComponent(dir).path).filter { $0.hasSuffix(".bsp") }.sorted()
        #expect(names.count >= 3)
        for name in names {
            let bytes = TestEngine.repositoryFile("\(dir)/\(name)")
            let k = try PlanetaryKernel(bytes: KernelBuffer(copying: bytes), file: name)
            #expect(k.spk.isBigEndian == name.contains("-be"))
            let t = (k.spanSeconds.lowerBound + k.spanSeconds.upperBound) / 2
            for body in PlanetaryKernel.bodies where body != .moon {
                #expect(k.heliocentricState(body, secondsPastJ2000: t) == TestEngine.kernel.heliocentricState(body, secondsPastJ2000: t), "\(name) \(body)")
            }
        }
    }

    @Test("type 2 velocity is the derivative of position: central differences over ±1 s on the bundled kernel")
    func derivativeMatchesDifference() {
        let spk = TestEngine.kernel.spk
        let t = 8.4e8 + 12_345.678
        for i in spk.segments.indices {
            let v = spk.state(segment: i, secondsPastJ2000: t).velocityKmPerSecond
            let numeric = (spk.position(segment: i, secondsPastJ2000: t + 1) - spk.position(segment: i, secondsPastJ2000: t - 1)) / 2
            #expect((numeric - v).length <= 1e-7 * max(v.length, 1e-3), "segment \(spk.segments[i].target): \(numeric) vs \(v)")
        }
    }

    @Test("the bundled file: 12 type 2 segments in J2000, named DE440, span 1899-12-28 … 2100-01-04 TDB")
    func bundledDirectory() {
        let k = TestEngine.kernel
        #expect(k.spk.segments.count == 12)
        #expect(k.spk.segments.allSatisfy { $0.type == 2 && $0.frame == 1 })
        #expect(Set(k.spk.segments.map(\.target)) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 301, 399])
        #expect(k.label == "DE440")
        #expect(k.spanJDTDB == 2_415_016.5...2_488_072.5)
        // Record lengths as JPL made them (DE440: Mercury 8 days and 14 coefficients, the Moon 4 days and 13).
        #expect(k.spk.segments.first { $0.target == 1 }?.coefficientCount == 14)
        #expect(k.spk.records[k.spk.segments.firstIndex { $0.target == 301 } ?? 0].intervalSeconds == 4 * 86_400)
    }
}

/// A toy solar system: constant offsets, so every chain can be checked by hand.
enum ToyKernel {
    static func constant(_ target: Int, _ center: Int, _ p: Vector3, type: Int = 2, frame: Int = 1, from: Double = -1e6, to: Double = 1e6) -> SPKWriter.Segment {
        let components: [[Double]] = type == 2 ? [[p.x], [p.y], [p.z]] : [[p.x], [p.y], [p.z], [0], [0], [0]]
        return SPKWriter.Segment(target: target, center: center, frame: frame, type: type, initial: from, interval: (to - from) / 2, records: [components, components], name: "DE-0999TOY")
    }

    static func offset(_ id: Int) -> Vector3 { Vector3(Double(id) * 1000, Double(id) * -200, Double(id % 7) * 30) }

    /// Segments 1–10 from the SSB, 301 and 399 from the Earth-Moon barycentre.
    static var segments: [SPKWriter.Segment] {
        (1...10).map { constant($0, 0, offset($0)) } + [constant(301, 3, offset(301)), constant(399, 3, offset(399))]
    }

    static func kernel(_ segments: [SPKWriter.Segment], bigEndian: Bool = false) throws(SPKError) -> PlanetaryKernel {
        try PlanetaryKernel(bytes: KernelBuffer(copying: SPKWriter(segments: segments, bigEndian: bigEndian).bytes()), file: "toy.bsp")
    }
}

@Suite("Planetary kernel: chains through centres, frames, spans")
struct PlanetaryKernelTests {
    let toEcliptic = Precession.equatorialToEclipticJ2000

    @Test("heliocentric = body − Sun; the Earth via the Earth-Moon barycentre; the Moon geocentric = 301 − 399")
    func chains() throws {
        let k = try ToyKernel.kernel(ToyKernel.segments)
        #expect(k.label == "DE999")
        let sun = ToyKernel.offset(10)
        for (body, id) in [(BodyID.mercury, 1), (.mars, 4), (.pluto, 9)] {
            let expected = toEcliptic * (ToyKernel.offset(id) - sun) / Constants.auKm
            #expect((k.heliocentricState(body, secondsPastJ2000: 0).positionAU - expected).length < 1e-15, "\(body)")
        }
        let earth = toEcliptic * (ToyKernel.offset(3) + ToyKernel.offset(399) - sun) / Constants.auKm
        #expect((k.heliocentricPosition(.earth, secondsPastJ2000: 0) - earth).length < 1e-15)
        let moon = toEcliptic * (ToyKernel.offset(301) - ToyKernel.offset(399))
        #expect((k.moonGeocentricPosition(secondsPastJ2000: 0) - moon).length < 1e-9)
        #expect(k.heliocentricState(.sun, secondsPastJ2000: 0).positionAU == .zero)
        // The batch paths agree with the single-body ones.
        var helio = [Vector3](repeating: .zero, count: BodyID.count)
        let m = k.positions(secondsPastJ2000: 0, heliocentricAU: &helio)
        #expect((m - moon).length < 1e-9 && (helio[BodyID.earth.index] - earth).length < 1e-15)
    }

    @Test("another chain to the same bodies: the Earth and Moon given from the SSB directly")
    func otherChains() throws {
        let direct = (1...10).map { ToyKernel.constant($0, 0, ToyKernel.offset($0)) }
            + [ToyKernel.constant(399, 0, ToyKernel.offset(3) + ToyKernel.offset(399)), ToyKernel.constant(301, 0, ToyKernel.offset(3) + ToyKernel.offset(301))]
        let a = try ToyKernel.kernel(direct), b = try ToyKernel.kernel(ToyKernel.segments)
        #expect((a.heliocentricPosition(.earth, secondsPastJ2000: 5) - b.heliocentricPosition(.earth, secondsPastJ2000: 5)).length < 1e-15)
        #expect((a.moonGeocentricPosition(secondsPastJ2000: 5) - b.moonGeocentricPosition(secondsPastJ2000: 5)).length < 1e-8)
    }

    @Test("several segments per body (as in DE441): each epoch uses the segment covering it; the span is their union")
    func splitSegments() throws {
        var segments = ToyKernel.segments.filter { $0.target != 5 }
        segments.append(ToyKernel.constant(5, 0, Vector3(1, 2, 3) * 1e6, from: -1e6, to: 0))
        segments.append(ToyKernel.constant(5, 0, Vector3(-3, 2, 1) * 1e6, from: 0, to: 1e6))
        let k = try ToyKernel.kernel(segments)
        #expect(k.spanSeconds == -1e6...1e6)
        let sun = ToyKernel.offset(10)
        #expect((k.heliocentricPosition(.jupiter, secondsPastJ2000: -10) - toEcliptic * (Vector3(1, 2, 3) * 1e6 - sun) / Constants.auKm).length < 1e-15)
        #expect((k.heliocentricPosition(.jupiter, secondsPastJ2000: 10) - toEcliptic * (Vector3(-3, 2, 1) * 1e6 - sun) / Constants.auKm).length < 1e-15)
    }

    @Test("the span is where every needed segment is present")
    func span() throws {
        var segments = ToyKernel.segments.filter { $0.target != 301 }
        segments.append(ToyKernel.constant(301, 3, ToyKernel.offset(301), from: -500, to: 700))
        #expect(try ToyKernel.kernel(segments).spanSeconds == -500...700)
    }

    @Test("a kernel without the Moon, or with it in an unread type or another frame, is refused by name", arguments: [
        (ToyKernel.segments.filter { $0.target != 301 }, SPKError.Kind.missingSegments, "Moon (301)"),
        (ToyKernel.segments.filter { $0.target != 3 }, .missingSegments, "Earth-Moon barycentre (3)"),
        (ToyKernel.segments.filter { $0.target != 10 }, .missingSegments, "Sun (10)"),
        (ToyKernel.segments.map { $0.target == 301 ? SPKWriter.Segment(target: 301, center: 3, type: 5, initial: 0, interval: 1, records: []) : $0 }, .unsupported, "type 5"),
        (ToyKernel.segments.map { $0.target == 5 ? ToyKernel.constant(5, 0, .zero, frame: 17) : $0 }, .unsupported, "frame 17"),
        (ToyKernel.segments.map { $0.target == 3 ? ToyKernel.constant(3, 301, .zero) : $0 }, .corrupt, "do not reach"),
    ] as [([SPKWriter.Segment], SPKError.Kind, String)])
    func refused(segments: [SPKWriter.Segment], kind: SPKError.Kind, words: String) {
        do {
            _ = try ToyKernel.kernel(segments)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == kind, "\(error)")
            #expect(error.description.contains("toy.bsp") && error.description.contains(words), "\(error)")
        }
    }
}
