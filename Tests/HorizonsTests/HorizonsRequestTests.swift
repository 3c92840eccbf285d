import Foundation
import Testing
import Ephemeris
import Sky
@testable import Horizons

/// The request side: parameters, quoting, COMMAND forms, time and step forms, the MPC observatory
/// list, and the refusals Horizons words.
@Suite("Horizons requests")
struct HorizonsRequestTests {
    @Test("Quotes are removed once; keywords are matched without case; what is not Horizons' is a request error")
    func parameters() throws {
        let p = try HorizonsParameters([("format", "text"), ("command", "'499'"), ("CSV_FORMAT", "\"YES\""), ("STEP_SIZE", "'1 d'")])
        #expect(p["COMMAND"]?.text == "499" && p["COMMAND"]?.quoted == true)
        #expect(p["CSV_FORMAT"]?.text == "YES")
        #expect(p["STEP_SIZE"]?.text == "1 d")
        #expect(p.wantsText)
        #expect(throws: HorizonsRequestError.missingCommand) { try HorizonsParameters([("format", "json")]) }
        #expect(throws: HorizonsRequestError.unknownKeyword("FOO")) { try HorizonsParameters([("COMMAND", "499"), ("FOO", "1")]) }
        #expect(throws: HorizonsRequestError.repeated("command")) { try HorizonsParameters([("COMMAND", "499"), ("command", "1")]) }
        #expect(throws: HorizonsRequestError.format("xml")) { try HorizonsParameters([("COMMAND", "499"), ("format", "xml")]) }
    }

    @Test("COMMAND: NAIF ids, names, the major-body list, small-body searches with ';'")
    func commands() {
        #expect(HorizonsCommand.parse("499") == .majorID(499))
        #expect(HorizonsCommand.parse("-31") == .majorID(-31))
        #expect(HorizonsCommand.parse("Mars") == .majorName("Mars"))
        #expect(HorizonsCommand.parse("MB") == .majorList)
        #expect(HorizonsCommand.parse("Ceres;") == .smallBody(.init(field: .any, value: "Ceres")))
        #expect(HorizonsCommand.parse("DES=99942;") == .smallBody(.init(field: .designation, value: "99942")))
        #expect(HorizonsCommand.parse("2P; CAP; NOFRAG;") == .smallBody(.init(field: .any, value: "2P")))
        #expect(HorizonsCommand.parse("C/1995 O1;") == .smallBody(.init(field: .any, value: "C/1995 O1")))
    }

    @Test("COMMAND lookups through the context: a body, Horizons' list for an ambiguous name, its error for none")
    func lookups() {
        let c = TestHorizons.context
        guard case let .body(mars) = c.lookup(.majorID(499)) else { Issue.record("499"); return }
        #expect(mars.name == "Mars")
        guard case let .body(ceres) = c.lookup(HorizonsCommand.parse("1;")) else { Issue.record("1;"); return }
        #expect(ceres.name.contains("Ceres"))
        guard case let .body(apophis) = c.lookup(HorizonsCommand.parse("DES=99942;")) else { Issue.record("DES=99942;"); return }
        #expect(apophis.id == 99942)
        // "Mars" names the barycentre (4) and the planet (499): Horizons lists both.
        guard case let .listing(list) = c.lookup(.majorName("Mars")) else { Issue.record("Mars is ambiguous"); return }
        #expect(list.contains("499") && list.contains("Mars Barycenter"))
        guard case let .listing(none) = c.lookup(HorizonsCommand.parse("NoSuchBody;")) else { Issue.record("NoSuchBody"); return }
        #expect(none.localizedLowercase.contains("no matches"))
    }

    @Test("Times: ISO and Horizons' calendar forms, JD, a scale suffix; steps in units and as a count of intervals")
    func times() throws {
        let a = try #require(HorizonsTimeParser.parse("2022-06-10", gregorianOnly: false))
        #expect(a.jd == 2_459_740.5)
        let b = try #require(HorizonsTimeParser.parse("2022-Jun-10 12:00", gregorianOnly: false))
        #expect(b.jd == 2_459_741.0)
        let c = try #require(HorizonsTimeParser.parse("JD2459740.5", gregorianOnly: false))
        #expect(c.jd == 2_459_740.5)
        let d = try #require(HorizonsTimeParser.parse("2022-06-10 TDB", gregorianOnly: false))
        #expect(d.scale == .tdb)
        #expect(HorizonsTimeParser.parse("2022-Foo-10", gregorianOnly: false) == nil)
        #expect(HorizonsStep.parse("1d") == .seconds(86_400))
        #expect(HorizonsStep.parse("10 m") == .seconds(600))
        #expect(HorizonsStep.parse("1 h") == .seconds(3_600))
        #expect(HorizonsStep.parse("2 mo") == .months(2))
        #expect(HorizonsStep.parse("100") == .intervals(100))
        #expect(HorizonsStep.parse("1 fortnight") == nil)
    }

    @Test("Refusals in Horizons' words: an empty TLIST, an unquoted blank, a stop before the start, a table past 90,024 rows")
    func refusals() throws {
        func failure(_ pairs: [(String, String)]) throws -> String {
            guard case let .failure(f) = Horizons.answer(try HorizonsParameters(pairs.map { (name: $0.0, value: $0.1) }), context: TestHorizons.context) else { return "" }
            return f.text
        }
        #expect(try failure([("COMMAND", "'499'"), ("TLIST", "[]")]).contains("BATVAR: no TLIST values found (or missing quotes)"))
        let blank = try failure([("COMMAND", "'499'"), ("START_TIME", "2026-01-01"), ("STOP_TIME", "2026-01-02"), ("STEP_SIZE", "1 h")])
        #expect(blank.contains("INPUT ERROR in VLADD") && blank.contains("Too many constants") && blank.contains("STEP_SIZE = 1 h"))
        #expect(try failure([("COMMAND", "'499'"), ("START_TIME", "'2026-01-02'"), ("STOP_TIME", "'2026-01-01'")]).contains("STOP_TIME"))
        #expect(try failure([("COMMAND", "'499'"), ("START_TIME", "'2026-01-01'"), ("STOP_TIME", "'2026-12-31'"), ("STEP_SIZE", "'1 m'")])
            .contains("exceeds 90024 line max"))
    }

    @Test("The MPC's observatory list: the recorded excerpt's 11 sites, Greenwich where the MPC puts it")
    func observatories() throws {
        let codes = TestHorizons.observatories
        #expect(codes.count == 11)
        let greenwich = try #require(codes["000"])
        #expect(greenwich.name == "Greenwich" && greenwich.longitudeDeg == 0 && greenwich.rhoCosPhi == 0.62411 && greenwich.rhoSinPhi == 0.77873)
        let o = try #require(greenwich.observer)
        // ρ cos φ′ and ρ sin φ′ in Earth radii: geocentric latitude 51.29°, geodetic 51.48°.
        #expect(abs(o.latitudeDeg - 51.4778) < 0.01)
        #expect(codes["Z99"] == nil)
        #expect(throws: ObservatoryCodesError.self) { try ObservatoryCodes(text: Array("<html>nothing</html>".utf8), source: "x") }
    }

    @Test("Constellations: Roman's table read whole; known directions fall in their constellations")
    func constellations() throws {
        let c = try #require(TestHorizons.constellations, "Resources/constellations/roman1987-boundaries.dat")
        func direction(raHours: Double, decDeg: Double) -> Vector3 {
            let a = raHours * 15 * .pi / 180, d = decDeg * .pi / 180
            return Vector3(cos(d) * cos(a), cos(d) * sin(a), sin(d))
        }
        #expect(c.abbreviation(icrf: direction(raHours: 2.53, decDeg: 89.26)) == "UMi")  // Polaris
        #expect(c.abbreviation(icrf: direction(raHours: 6.75, decDeg: -16.72)) == "CMa") // Sirius
        #expect(c.abbreviation(icrf: direction(raHours: 5.92, decDeg: 7.41)) == "Ori")   // Betelgeuse
        #expect(c.abbreviation(icrf: direction(raHours: 12, decDeg: -89.9)) == "Oct")
    }
}
