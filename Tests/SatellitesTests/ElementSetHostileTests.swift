import Testing
import Ephemeris
@testable import Satellites

/// Element-set files as a careless operator or a hostile one makes them: dates that are not
/// dates, epochs out of any sane range, names of 100,000 characters, XML shaped to make a
/// searching parser quadratic, JSON nested or broken. Each is a problem naming the record and
/// the reason, or a refusal of the file — never a crash, a hang, or a set served from nonsense.
@Suite struct ElementSetHostileTests {
    static func omm(_ fields: [String: String]) -> String {
        var all = ["OBJECT_NAME": "\"TEST\"", "EPOCH": "\"2026-09-24T03:24:21.452544\"", "MEAN_MOTION": "15.49258637",
                   "ECCENTRICITY": "0.0004691", "INCLINATION": "51.6318", "RA_OF_ASC_NODE": "170.3464",
                   "ARG_OF_PERICENTER": "174.6338", "MEAN_ANOMALY": "185.4701", "NORAD_CAT_ID": "25544", "BSTAR": "0.00018116"]
        for (k, v) in fields { all[k] = v }
        return "{" + all.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    static func problems(_ json: String) throws -> [String] {
        try ElementSetFile(bytes: Array(json.utf8)).problems.map(\.reason)
    }

    @Test("epochs that are not calendar dates, or outside 1957…2100, are refused with the reason")
    func epochsAreDates() throws {
        let cases: [(String, String)] = [
            ("9999-12-31T23:59:59", "the year 9999 is outside 1957…2100"),
            ("0000-01-01T00:00:00", "the year 0 is outside 1957…2100"),
            ("2026-02-30T00:00:00", "2026-02-30 is not a date"),
            ("2023-02-29T12:00:00", "2023-02-29 is not a date"),
            ("2026-04-31T00:00:00", "2026-04-31 is not a date"),
            ("2026-13-01T00:00:00", "2026-13-01 is not a date"),
            ("2026-01-01T24:00:00", "24:00:00 is not a time of day"),
            ("2026-01-01T12:00:00.5e300", "expected YYYY-MM-DDThh:mm:ss[.ffffff] UTC"),
            ("2026-01-01T12:00:-1", "expected YYYY-MM-DDThh:mm:ss[.ffffff] UTC"),
        ]
        for (epoch, reason) in cases {
            let p = try Self.problems("[" + Self.omm(["EPOCH": "\"\(epoch)\""]) + "]")
            #expect(p.count == 1 && p[0].contains(reason), "\(epoch): \(p)")
        }
        // A leap day and a leap second are dates.
        #expect(try Self.problems("[" + Self.omm(["EPOCH": "\"2024-02-29T23:59:60.5\""]) + "]").isEmpty)
    }

    @Test("a TLE epoch day past the year's end is refused")
    func tleEpochDayFitsTheYear() throws {
        let line1 = "1 25544U 98067A   23366.14191496  .00009634  00000+0  18116-3 0  9990"
        let line2 = "2 25544  51.6318 170.3464 0004691 174.6338 185.4701 15.49258637587098"
        do {
            _ = try TLEParser.parse(line1: Substring(line1), line2: Substring(line2), verifyChecksums: false)
            Issue.record("day 366 of 2023 was read")
        } catch {
            #expect(error.reason.contains("expected 1 ≤ day < 366 in 2023"))
        }
        // 2024 had a day 366.
        let leap = "1 25544U 98067A   24366.14191496  .00009634  00000+0  18116-3 0  9990"
        #expect((try? TLEParser.parse(line1: Substring(leap), line2: Substring(line2), verifyChecksums: false)) != nil)
    }

    @Test("names are capped at 80 bytes in OMM as in TLE; values of any keyword at 4 KiB")
    func namesAreCapped() throws {
        let long = String(repeating: "N", count: 100_000)
        let p = try Self.problems("[" + Self.omm(["OBJECT_NAME": "\"\(long)\""]) + "]")
        #expect(p.count == 1 && p[0].contains("at most 80"), "\(p.map { $0.prefix(100) })")
        let xml = "<ndm><segment><OBJECT_NAME>\(long)</OBJECT_NAME></segment></ndm>"
        let x = try ElementSetFile(bytes: Array(xml.utf8))
        #expect(x.problems.count == 1)
        #expect(x.problems.first?.satellite?.count ?? 0 < 100)
        let tle = try ElementSetFile(bytes: Array((long + "\n").utf8))
        #expect(tle.problems.map(\.reason) == ["a name line longer than 80 characters (a TLE name has 24)"])
    }

    @Test("one segment with tens of thousands of children, unclosed tags and markup inside: read in one pass")
    func xmlShapedToBeQuadratic() throws {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE ndm [<!ENTITY a \"aaaaaaaaaa\">]>\n<ndm><segment>"
        for i in 0..<30_000 { xml += "<X\(i % 7)>&a;</X\(i % 7)><open\(i % 3)>" }
        xml += "<!-- a comment with <EPOCH>1999-01-01T00:00:00</EPOCH> inside --><![CDATA[<segment>]]>"
        xml += "</segment></ndm>"
        let f = try ElementSetFile(bytes: Array(xml.utf8))
        #expect(f.entries.isEmpty)
        #expect(f.problems.map(\.reason) == ["keyword EPOCH is missing"])
        // Many segments, each missing its end: each reported, and still one pass.
        let unclosed = String(repeating: "<segment><EPOCH>2026-01-01T00:00:00</EPOCH>\n", count: 20_000)
        let g = try ElementSetFile(bytes: Array(("<ndm>" + unclosed).utf8))
        #expect(g.problems.count == 20_000)
        #expect(g.problems.first?.reason == "<segment> without </segment>")
        #expect(g.problems.last?.line == 20_000)
    }

    @Test("the XML of a real set reads the same whatever markup surrounds its keywords")
    func xmlMarkupAround() throws {
        let xml = """
        <ndm><!-- <segment> in a comment is not one --><segment><metadata>
        <OBJECT_NAME>ISS &amp; FRIENDS</OBJECT_NAME><NORAD_CAT_ID >25544</NORAD_CAT_ID><EMPTY/></metadata>
        <data><EPOCH>2026-09-24T03:24:21.452544</EPOCH><MEAN_MOTION>15.49258637</MEAN_MOTION><ECCENTRICITY>.0004691</ECCENTRICITY>
        <INCLINATION>51.6318</INCLINATION><RA_OF_ASC_NODE>170.3464</RA_OF_ASC_NODE><ARG_OF_PERICENTER>174.6338</ARG_OF_PERICENTER>
        <MEAN_ANOMALY>185.4701</MEAN_ANOMALY><BSTAR>.18116E-3</BSTAR><USER_DEFINED parameter="X">1</USER_DEFINED></data></segment></ndm>
        """
        let f = try ElementSetFile(bytes: Array(xml.utf8))
        #expect(f.problems.isEmpty, "\(f.problems)")
        #expect(f.entries.first?.elements.name == "ISS & FRIENDS")
        #expect(f.entries.first?.line == 1)
    }

    @Test("JSON: nested values, escapes, numbers as strings, nulls, non-objects; broken JSON refuses the file")
    func jsonShapes() throws {
        let escaped = Self.omm(["OBJECT_NAME": #""ISS \"ZARYA\" \u00e9\/""#, "NORAD_CAT_ID": "\"25544\"", "MEAN_MOTION_DOT": "null",
                                "EXTRA": #"{"deep":[[[[1]]]],"s":"}"}"#])
        let nested = Self.omm(["BSTAR": "[1,2]"])
        let f = try ElementSetFile(bytes: Array(("[" + escaped + ", 42, \"text\", " + nested + "]").utf8))
        #expect(f.entries.map(\.elements.name) == ["ISS \"ZARYA\" é/"])
        #expect(f.problems.map(\.description) == ["record 2: not a JSON object of OMM keywords", "record 3: not a JSON object of OMM keywords",
                                                  "record 4: BSTAR is not a number or a string"])
        // One record without the array.
        #expect(try ElementSetFile(bytes: Array(Self.omm([:]).utf8)).entries.count == 1)
        for broken in ["[" + Self.omm([:]), "[" + Self.omm([:]) + "] trailing", "[{\"A\":\"unterminated}]",
                       "[{\"A\":\"bad \\q escape\"}]", String(repeating: "[", count: 10_000), "{\"A\": 1e999999999999999999999999999999999999999999999999999999999999999999999999999}"] {
            #expect(throws: ElementSetError.self, "\(broken.prefix(40))") { try ElementSetFile(bytes: Array(broken.utf8)) }
        }
    }

    @Test("a cut-off file looks unfinished; a whole one does not")
    func unfinishedFiles() {
        let iss = ElementSetFileTests.iss.joined(separator: "\n")
        #expect(!ElementSetFile.looksUnfinished(Array((iss + "\n").utf8)))
        #expect(!ElementSetFile.looksUnfinished(Array(iss.utf8)), "no final line break, but a whole line 2")
        #expect(ElementSetFile.looksUnfinished(Array(iss.dropLast(20).utf8)), "line 2 cut short")
        #expect(ElementSetFile.looksUnfinished(Array((ElementSetFileTests.iss[0...1].joined(separator: "\n") + "\n").utf8)), "line 2 missing")
        #expect(ElementSetFile.looksUnfinished(Array("[{\"A\":1},\n{\"B\"".utf8)))
        #expect(!ElementSetFile.looksUnfinished(Array("[{\"A\":1}]\n".utf8)))
        #expect(ElementSetFile.looksUnfinished(Array("<ndm><segment>".utf8 + [0x0A])) == false, "ends with a tag")
        #expect(ElementSetFile.looksUnfinished(Array("<ndm><segment><EPOCH>2026".utf8)))
        #expect(!ElementSetFile.looksUnfinished([]))
    }

    @Test("a stop asked for ends a long read, reported")
    func interruptedRead() throws {
        struct Stop: Error {}
        let lines = Array(repeating: ElementSetFileTests.iss.joined(separator: "\n"), count: 2_000).joined(separator: "\n")
        let f = try ElementSetFile(bytes: Array(lines.utf8), interrupt: Interrupt { Stop() })
        #expect(f.entries.count < 2_000)
        #expect(f.problems.last?.reason == "reading stopped: the server is stopping")
    }
}

@Suite struct SatelliteCatalogueOrderTests {
    @Test("sets in any order, overridden by later files, come out once each in NORAD order")
    func catalogueSortsAndOverridesInPlace() throws {
        let iss = ElementSetFileTests.iss
        func set(_ n: Int, name: String) -> [String] {
            let norad = String(repeating: "0", count: 5 - String(n).count) + String(n)
            let l1 = "1 \(norad)" + iss[1].dropFirst(7).dropLast()
            let l2 = "2 \(norad)" + iss[2].dropFirst(7).dropLast()
            return [name, l1 + String(TLEParser.checksum(Array(l1.utf8)[...])), l2 + String(TLEParser.checksum(Array(l2.utf8)[...]))]
        }
        let numbers = [907, 3, 55, 1, 20_000, 44, 2, 999, 600, 5]
        let first = try ElementSetFileTests.file(numbers.flatMap { set($0, name: "A\($0)") })
        let second = try ElementSetFileTests.file([55, 1, 77].flatMap { set($0, name: "B\($0)") })
        let c = SatelliteCatalogue(files: [("first", first), ("second", second)], reservedNames: [])
        #expect(c.satellites.map(\.noradID) == (numbers + [77]).sorted())
        #expect(c.satellites.map { $0.elements.name ?? "" } == ["B1", "A2", "A3", "A5", "A44", "B55", "B77", "A600", "A907", "A999", "A20000"])
        #expect(c.satellite(norad: 55)?.source == "second")
        #expect(c.satellite(named: "a907")?.noradID == 907)
    }
}
