import Foundation
import Testing
@testable import Ephemeris

/// `SPKKernel.checkData()`: the interior of a kernel, which opening it does not read. A record
/// in the middle with radius 0, a NaN midpoint, an infinite or absurd coefficient, a NaN in a
/// state of another type: each is refused naming the file, segment and record (or word) before
/// the server serves from it; every real kernel the project reads passes.
@Suite("SPK data check: damaged interior records")
struct SPKDataCheckTests {
    static let file = "damaged.bsp"

    static func putDouble(_ v: Double, word: Int, _ b: inout [UInt8]) {
        withUnsafeBytes(of: v.bitPattern.littleEndian) { b.replaceSubrange((word - 1) * 8..<(word * 8), with: $0) }
    }

    /// The bundled DE440 excerpt's first segment (Mercury's barycentre from the SSB), and the
    /// DAF address of its record `k` (1-based).
    static func recordAddress(_ k: Int) throws -> (address: Int, segment: SPKKernel.Segment) {
        let spk = try SPKKernel(bytes: KernelBuffer(copying: TestEngine.kernelBytes), file: file)
        let s = spk.records[0]
        return ((s.dataOffset / 8) + 1 + (k - 1) * s.recordWords, spk.segments[0])
    }

    static func check(_ bytes: [UInt8]) throws -> SPKError? {
        let spk = try SPKKernel(bytes: KernelBuffer(copying: bytes), file: file)
        do { try spk.checkData() } catch { return error }
        return nil
    }

    @Test("a middle record of the DE kernel with radius 0, a NaN midpoint, an infinite or huge coefficient: refused, naming segment and record")
    func damagedChebyshevRecords() throws {
        let (record, _) = try Self.recordAddress(1234)
        let cases: [(String, Int, Double, String)] = [
            ("radius 0", record + 1, 0, "record 1234 of"),
            ("NaN midpoint", record, .nan, "has midpoint nan s"),
            ("infinite coefficient", record + 7, .infinity, "coefficient 6 is inf"),
            ("absurd coefficient", record + 20, -3e25, "coefficient 19 is -3e+25"),
            ("midpoint off by a day", record, 1e9, "has midpoint 1000000000.0 s"),
        ]
        for (what, word, value, expected) in cases {
            var bytes = TestEngine.kernelBytes
            Self.putDouble(value, word: word, &bytes)
            // Opening does not read the interior: the kernel opens.
            guard let error = try Self.check(bytes) else { Issue.record("\(what): passed the check"); continue }
            #expect(error.kind == .corrupt)
            #expect(error.description.contains(Self.file) && error.description.contains("segment 1 (1 from 0, type 2)"), "\(what): \(error)")
            #expect(error.description.contains(expected), "\(what): \(error)")
        }
    }

    @Test("a NaN or absurd number in a type 13 state, a type 1 record or a type 19 packet: refused, naming the word")
    func damagedOtherTypes() throws {
        // A state number of the first record, packet or mini-segment: what opening does not read.
        for (name, offset) in [("m2020_edl_v01.bsp", 2), ("m2020_cruise_od138_v1.bsp", 17), ("synthetic-type19.bsp", 2)] {
            let original = TestEngine.repositoryFile("\(SPKFixture.kernels)/\(name)")
            let spk = try SPKKernel(bytes: KernelBuffer(copying: original), file: name)
            let i = try #require(spk.segments.firstIndex { $0.isEvaluated && $0.type != 2 && $0.type != 3 })
            let (first, last) = spk.dataAddresses[i]
            for (value, shown) in [(Double.nan, "nan"), (-.infinity, "-inf"), (7e30, "7e+30")] {
                var bytes = original
                let word = first + offset
                #expect(word <= last)
                Self.putDouble(value, word: word, &bytes)
                let error = try Self.check(bytes)
                #expect(error?.description.contains("segment \(i + 1) ") == true, "\(name): \(String(describing: error))")
                #expect(error?.description.contains("word \(word - first + 1) of its data is \(shown)") == true, "\(name): \(String(describing: error))")
            }
        }
    }

    @Test("every real kernel the project reads passes: the DE440 excerpt, the missions' kernels and NAIF's samples")
    func realKernelsPass() throws {
        var checked = [TestEngine.kernelBytes]
        var names = ["de440-1900-2100.bsp"]
        for dir in ["Resources/missions", "Resources/missions/naif", SPKFixture.kernels] {
            let path = TestEngine.root.appendingPathComponent(dir).path
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() where name.hasSuffix(".bsp") {
                checked.append(TestEngine.repositoryFile("\(dir)/\(name)"))
                names.append(name)
            }
        }
        for (name, bytes) in zip(names, checked) {
            #expect(try Self.check(bytes) == nil, "\(name)")
        }
        #expect(names.count >= 30, "\(names.count) kernels")
    }
}
