import Foundation
import Testing
import Ephemeris
@testable import Horizons

/// `REF_SYSTEM=B1950`: vectors and elements in the FK4 equator or the ecliptic of B1950, and the
/// observer table's astrometric place in FK4/B1950, checked against SPICE's own numbers.
@Suite("Horizons REF_SYSTEM=B1950")
struct HorizonsReferenceSystemTests {
    /// SPICE's fixed rotations (`pxform('J2000', 'B1950')`, `pxform('J2000', 'ECLIPB1950')`):
    /// `Precession`'s, which `PrecessionTests` holds to SPICE's own numbers within 1e-15.
    static let j2000ToB1950 = Precession.equatorialJ2000ToB1950
    static let j2000ToEclipticB1950 = Precession.equatorialJ2000ToEclipticB1950

    static func text(_ pairs: [(String, String)]) throws -> String {
        switch Horizons.answer(try HorizonsParameters(pairs.map { (name: $0.0, value: $0.1) }), context: TestHorizons.context) {
        case let .table(t): return try t.text()
        case let .text(t): return t
        case let .failure(f): return "FAILURE: " + f.text
        case .spk: return "SPK"
        }
    }

    /// The CSV rows between `$$SOE` and `$$EOE`, fields trimmed.
    static func rows(_ text: String) -> [[String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let soe = lines.firstIndex(of: "$$SOE"), let eoe = lines.firstIndex(of: "$$EOE") else { return [] }
        return lines[(soe + 1)..<eoe].map { $0.components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    static let marsVectors: [(String, String)] = [
        ("format", "text"), ("COMMAND", "'499'"), ("EPHEM_TYPE", "VECTORS"), ("CENTER", "'500@10'"), ("OUT_UNITS", "AU-D"),
        ("CSV_FORMAT", "YES"), ("VEC_TABLE", "2"), ("START_TIME", "'2026-01-01'"), ("STOP_TIME", "'2026-01-03'"), ("STEP_SIZE", "'1 d'"),
    ]

    @Test("VECTORS in FK4/B1950 and the ecliptic of B1950 are the ICRF table turned by SPICE's matrices, to the printed digits")
    func vectors() throws {
        let icrf = try Self.text(Self.marsVectors + [("REF_PLANE", "FRAME")])
        let fk4 = try Self.text(Self.marsVectors + [("REF_PLANE", "FRAME"), ("REF_SYSTEM", "B1950")])
        let ecliptic = try Self.text(Self.marsVectors + [("REF_PLANE", "ECLIPTIC"), ("REF_SYSTEM", "B1950")])
        #expect(icrf.contains("Reference frame : ICRF\n"))
        #expect(fk4.contains("Reference frame : FK4/B1950.0\n"))
        #expect(ecliptic.contains("Reference frame : Ecliptic of B1950.0\n"))
        #expect(fk4.contains("FK4/B1950.0\n") && ecliptic.contains("Ecliptic at the B1950.0 reference epoch"))
        let base = Self.rows(icrf)
        #expect(base.count == 3)
        var checked = 0
        for (rotated, m) in [(Self.rows(fk4), Self.j2000ToB1950), (Self.rows(ecliptic), Self.j2000ToEclipticB1950)] {
            #expect(rotated.count == base.count)
            for (a, b) in zip(base, rotated) {
                #expect(a[0] == b[0] && a[1] == b[1])
                for columns in [2...4, 5...7] {
                    let v = columns.map { Double(a[$0])! }, w = columns.map { Double(b[$0])! }
                    let turned = m * Vector3(v[0], v[1], v[2])
                    let printed = Vector3(w[0], w[1], w[2])
                    // 16 significant digits printed: each component within a few units of the last.
                    #expect((turned - printed).length < 4e-15 * turned.length, "\(b[1]) \(turned) vs \(printed)")
                    #expect(abs(turned.length - printed.length) < 4e-15 * turned.length)
                    checked += 1
                }
            }
        }
        #expect(checked == 12)
    }

    @Test("ELEMENTS on the ecliptic of B1950: e and a as on J2000's (a rotation keeps them), the node moved by the 50 years' precession")
    func elements() throws {
        let pairs: [(String, String)] = [("format", "text"), ("COMMAND", "'499'"), ("EPHEM_TYPE", "ELEMENTS"), ("CENTER", "'500@10'"),
                                         ("CSV_FORMAT", "YES"), ("TLIST", "'2461041.5'")]
        let j2000 = try #require(Self.rows(try Self.text(pairs)).first)
        let text = try Self.text(pairs + [("REF_SYSTEM", "B1950")])
        #expect(text.contains("Reference frame : Ecliptic of B1950.0\n"))
        let b1950 = try #require(Self.rows(text).first)
        // JD, date, EC, QR, IN, OM, W, Tp, N, MA, TA, A, AD, PR
        #expect(abs(Double(j2000[2])! - Double(b1950[2])!) < 1e-13)
        #expect(abs(Double(j2000[11])! - Double(b1950[11])!) < 1e-13)
        let nodeShift = Double(j2000[5])! - Double(b1950[5])!
        #expect(nodeShift > 0.3 && nodeShift < 1.2, "Ω J2000 − Ω B1950 = \(nodeShift)°")
    }

    static let marsObserver: [(String, String)] = [
        ("format", "text"), ("COMMAND", "'499'"), ("CENTER", "'500@399'"), ("QUANTITIES", "'1,2'"), ("CSV_FORMAT", "YES"),
        ("TLIST", "'2461192.5'"),
    ]

    @Test("OBSERVER: quantity 1 is headed R.A._(FK4/B1950), DEC_(FK4/B1950) in the ICRF's widths; Mars's place is SPICE's; the apparent place is unchanged")
    func observer() throws {
        let fk4 = try Self.text(Self.marsObserver + [("ANG_FORMAT", "DEG"), ("EXTRA_PREC", "YES"), ("REF_SYSTEM", "B1950")])
        #expect(fk4.contains(", R.A._(FK4/B1950), DEC_(FK4/B1950), R.A._(a-app), DEC_(a-app),"))
        #expect(fk4.contains(" 'R.A._(FK4/B1950), DEC_(FK4/B1950),' ="))
        let icrf = try Self.text(Self.marsObserver + [("ANG_FORMAT", "DEG"), ("EXTRA_PREC", "YES")])
        let b = try #require(Self.rows(fk4).first), a = try #require(Self.rows(icrf).first)
        // Date, (blank), (blank), RA, DEC, apparent RA, apparent DEC.
        let raB1950 = try #require(Double(b[3])), decB1950 = try #require(Double(b[4]))
        #expect(a[5] == b[5] && a[6] == b[6])
        // SPICE: spkpos('4', et, 'B1950', 'LT', '399') at 2026-06-01 00:00 UTC from DE440
        // (scripts/make-b1950-reference.py): RA 36.52049760322299°, Dec 13.803664027155971°.
        // Mars's barycentre there, its centre here: a few metres, far below the tolerance.
        let spiceRA = 36.52049760322299, spiceDec = 13.803664027155971
        #expect(abs(raB1950 - spiceRA) * cos(spiceDec * .pi / 180) < arcseconds(0.01), "RA \(raB1950)")
        #expect(abs(decB1950 - spiceDec) < arcseconds(0.01), "Dec \(decB1950)")
        // The same rotation, taken through the printed ICRF place (9 decimals of a degree).
        let ra = Double(a[3])! * .pi / 180, dec = Double(a[4])! * .pi / 180
        let u = Self.j2000ToB1950 * Vector3(cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec))
        #expect(abs(atan2(u.y, u.x) * 180 / .pi - raB1950) < arcseconds(0.0001))
        #expect(abs(asin(u.z) * 180 / .pi - decB1950) < arcseconds(0.0001))

        // HMS: the fields keep the ICRF columns' 13 and 12 characters.
        let hms = try #require(Self.rows(try Self.text(Self.marsObserver + [("REF_SYSTEM", "B1950")])).first)
        let hmsICRF = try #require(Self.rows(try Self.text(Self.marsObserver)).first)
        let rawB1950 = try Self.text(Self.marsObserver + [("REF_SYSTEM", "B1950")])
        let line = try #require(rawB1950.split(separator: "\n").first { $0.hasPrefix(" 2026-Jun-01 00:00") })
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields[3].count == 13 && fields[4].count == 12, "\(fields)")
        #expect(hms[3] != hmsICRF[3] && hms[3].hasPrefix("02 26 "))
        #expect(try Self.text(Self.marsObserver + [("REF_SYSTEM", "FK5")]).contains("Cannot interpret REF_SYSTEM = FK5"))
    }
}
