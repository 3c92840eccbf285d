import Testing
import Ephemeris
@testable import SmallBodies

@Suite("Element files: SBDB JSON, MPCORB, MPC comets")
struct ElementFileTests {
    @Test("MPCORB: packed designations and epochs, H and G, the elements by column")
    func mpcorb() throws {
        let f = Fixtures.file("mpc-MPCORB.excerpt.DAT")
        #expect(f.format == .mpcorb)
        #expect(f.count == 4)
        #expect(f.problems.isEmpty)
        let ceres = f.body(at: 0)
        #expect(ceres.number == 1)
        #expect(ceres.name == "Ceres")
        #expect(ceres.elements.epochJDTDB == 2_459_000.5) // K205V = 2020-05-31
        #expect(ceres.elements.meanAnomalyDeg == 162.68631)
        #expect(ceres.elements.eccentricity == 0.0775571)
        #expect(abs(ceres.elements.semiMajorAxisAU - 2.7676569) < 1e-12)
        #expect(ceres.brightness == .asteroid(h: 3.4, g: 0.15))
        #expect(ceres.orbitClass.code == "MBA")
        #expect(f.body(at: 3).name == "Vesta")
        #expect(f.body(at: 3).source.line == 4)
    }

    @Test("MPC comets: perihelion time, q, e, angles, epoch, M1 and K1 = 2.5 n, names")
    func comets() throws {
        let f = Fixtures.file("mpc-CometEls.txt")
        #expect(f.format == .mpcComets)
        #expect(f.count == 3)
        let haleBopp = f.body(at: 0)
        #expect(haleBopp.designation == "C/1995 O1")
        #expect(haleBopp.name == "Hale-Bopp")
        #expect(haleBopp.kind == .comet)
        #expect(haleBopp.elements.perihelionAU == 0.911359)
        #expect(abs(haleBopp.elements.perihelionJDTDB - (CivilDateTime.julianDayNumberAtMidnight(year: 1997, month: 3, day: 29) + 0.6884)) < 1e-9)
        #expect(haleBopp.elements.epochJDTDB == CivilDateTime.julianDayNumberAtMidnight(year: 2020, month: 7, day: 7))
        #expect(haleBopp.brightness == .comet(m1: -2.0, k1: 10.0))
        let halley = f.body(at: 2)
        #expect(halley.designation == "1P")
        #expect(halley.name == "Halley")
        #expect(halley.orbitClass.code == "HTC")
        #expect(f.body(at: 1).name == "NEOWISE")
    }

    @Test("SBDB JSON: identity, all digits of the elements, model_pars with their g(r), H/G and M1/K1")
    func sbdb() throws {
        let apophis = Fixtures.file("jplsbdb-apophis.dat").body(at: 0)
        #expect(apophis.number == 99942)
        #expect(apophis.name == "Apophis")
        #expect(apophis.designation == "2004 MN4")
        #expect(apophis.elements.epochJDTDB == 2_454_733.5)
        #expect(apophis.elements.eccentricity == 0.1911953048308701)
        #expect(apophis.elements.meanAnomalyDeg == 180.429373045644)
        #expect(apophis.nonGravitational?.a2 == -5.592840054057059E-14)
        #expect(apophis.nonGravitational?.law == SmallBodyConstants.inverseSquare)
        #expect(apophis.orbitClass == OrbitClass(code: "ATE", name: "Aten"))
        #expect(apophis.fullName == "99942 Apophis (2004 MN4)")
        let comet = Fixtures.file("jplsbdb-67P.dat").body(at: 0)
        #expect(comet.designation == "67P")
        #expect(comet.name == "Churyumov-Gerasimenko")
        #expect(comet.kind == .comet)
        #expect(comet.nonGravitational?.dtDays == 35.07142445377104)
        #expect(comet.nonGravitational?.law == SmallBodyConstants.standardSublimation)
        #expect(comet.brightness == .comet(m1: 11.3, k1: 11))
        #expect(comet.fullName == "67P/Churyumov-Gerasimenko")
        let ceres = Fixtures.file("jplsbdb-ceres.dat").body(at: 0)
        #expect(ceres.number == 1 && ceres.name == "Ceres" && ceres.nonGravitational == nil)
        #expect(abs(SmallBodyConstants.standardSublimation.g(rAU: 1) - 1) < 1e-3)
    }

    @Test("packed designations and dates", arguments: [
        ("00001", "1"), ("A0001", "100001"), ("a0001", "360001"), ("~0000", "620000"), ("~000z", "620061"),
        ("K04M04N", "2004 MN4"), ("J95X00A", "1995 XA"), ("K07Tf8A", "2007 TA418"), ("PLS2040", "2040 P-L"), ("T1S3138", "3138 T-1"),
    ])
    func packed(_ packed: String, _ unpacked: String) {
        switch PackedDesignation.unpack(packed) {
        case .number(let n)?: #expect(String(n) == unpacked)
        case .provisional(let d)?: #expect(d == unpacked)
        case nil: Issue.record("\(packed) not unpacked")
        }
        #expect(PackedDesignation.date("K205V")! == (2020, 5, 31))
        #expect(PackedDesignation.date("J9611")! == (1996, 1, 1))
        #expect(PackedDesignation.unpack("J95O010", comet: true) == .provisional("1995 O1"))
        #expect(PackedDesignation.unpack("K25A00B") == .provisional("2025 AB"))
        #expect(PackedDesignation.unpack("00000") == nil && PackedDesignation.unpack("K0!M04N") == nil)
    }

    @Test("not an element file: refused whole, naming why")
    func refused() {
        for (bytes, reason) in [([UInt8](), "empty"), (Array("hello\nworld\n".utf8), "not an element file"),
                                (Array("{\"message\": \"specified object was not found\"}".utf8), "not an SBDB answer"),
                                (Array("[1, 2,".utf8), "not JSON")] {
            do {
                _ = try ElementFile(name: "junk", bytes: bytes)
                Issue.record("\(reason): accepted")
            } catch {
                #expect(error.reason.contains(reason), "\(error)")
            }
        }
        // Binary junk with no newline is bounded per line and refused after the header limit.
        var junk = [UInt8](repeating: 0x41, count: 3 << 20)
        junk[1 << 20] = 0x0A
        #expect(throws: ElementFileError.self) { _ = try ElementFile(name: "junk", bytes: junk) }
    }

    @Test("bad lines are reported by line and reason; repeats are one body; the rest is read")
    func badRecordsAndDuplicates() throws {
        let lines = String(decoding: Fixtures.bytes("mpc-MPCORB.excerpt.DAT"), as: UTF8.self).split(separator: "\n").map(String.init)
        var text = lines[0] + "\n"
        text += String(lines[1].prefix(70)) + "\n"                                   // line 2: cut short
        text += lines[1].replacingOccurrences(of: "0.2299723", with: "1.2299723") + "\n" // line 3: e ≥ 1
        for _ in 0..<5_000 { text += lines[0] + "\n" }                             // lines 4…: Ceres again
        text += lines[3] + "\r\n"
        let f = try ElementFile(name: "mixed.dat", bytes: Array(text.utf8))
        #expect(f.count == 2)
        #expect(f.problemCount == 5_002)
        #expect(f.problems.count == ElementFile.maxProblems)
        #expect(f.problems[0].line == 2 && f.problems[0].reason.contains("columns"))
        #expect(f.problems[1].line == 3 && f.problems[1].reason.contains("out of range"))
        #expect(f.problems[2].line == 4 && f.problems[2].reason.contains("number 1 again (first at line 1)"))
        #expect(f.body(at: 1).name == "Vesta" && f.body(at: 1).source.line == 5_004)
    }

    @Test("chunked input gives the same file as one piece, whatever the split")
    func chunks() throws {
        let bytes = Fixtures.bytes("mpc-MPCORB.excerpt.DAT") + Fixtures.bytes("mpc-MPCORB.excerpt.DAT")
        for size in [1, 7, 203, 4096] {
            var parser = ElementFileParser(name: "x")
            var k = 0
            while k < bytes.count {
                let end = min(bytes.count, k + size)
                try parser.consume(Array(bytes[k..<end]))
                k = end
            }
            let f = try parser.finish()
            #expect(f.count == 4 && f.problemCount == 4, "split \(size)")
        }
    }
}
