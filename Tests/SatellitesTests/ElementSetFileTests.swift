import Testing
import Ephemeris
@testable import Satellites

@Suite struct ElementSetFileTests {
    static let iss = [TLEParserTests.name, TLEParserTests.line1, TLEParserTests.line2]
    static let noaa = ["NOAA 19",
                       "1 33591U 09005A   26267.29309843  .00000009  00000+0  28340-4 0  9995",
                       "2 33591  98.9434 338.1952 0014779 109.0362 251.2412 14.13486774908481"]

    static func file(_ lines: [String]) throws -> ElementSetFile { try ElementSetFile(bytes: Array(lines.joined(separator: "\n").utf8)) }

    @Test func threeAndTwoLineSetsWithCommentsAndCRLF() throws {
        let f = try Self.file(["# refreshed by cron", ""] + Self.iss + [Self.noaa[1] + "\r", Self.noaa[2] + "\r", ""])
        #expect(f.format == .tle)
        #expect(f.problems.isEmpty)
        #expect(f.entries.map(\.elements.noradID) == [25_544, 33_591])
        #expect(f.entries.map(\.elements.name) == ["ISS (ZARYA)", nil])
        #expect(f.entries.map(\.line) == [3, 6])
    }

    @Test func aBadSetIsReportedByLineAndTheRestServed() throws {
        var broken = Self.noaa
        broken[2] = String(broken[2].dropLast()) + "0"
        let f = try Self.file(Self.iss + broken + ["0 LONELY NAME"] + ["2 99999 stray"])
        #expect(f.entries.map(\.elements.noradID) == [25_544])
        #expect(f.problems.map(\.description) == [
            "line 6, satellite NOAA 19: checksum (column 69) is 0, the line's digits give 1",
            "line 8, satellite LONELY NAME: line 2 without a line 1 before it",
        ])
    }

    @Test func ommJSONAsCelesTrakServesIt() throws {
        let json = """
        [{"OBJECT_NAME":"ISS (ZARYA)","OBJECT_ID":"1998-067A","EPOCH":"2026-09-24T03:24:21.452544","MEAN_MOTION":15.49258637,
          "ECCENTRICITY":0.0004691,"INCLINATION":51.6318,"RA_OF_ASC_NODE":170.3464,"ARG_OF_PERICENTER":174.6338,
          "MEAN_ANOMALY":185.4701,"EPHEMERIS_TYPE":0,"CLASSIFICATION_TYPE":"U","NORAD_CAT_ID":25544,"ELEMENT_SET_NO":999,
          "REV_AT_EPOCH":58709,"BSTAR":0.00018116,"MEAN_MOTION_DOT":9.634e-5,"MEAN_MOTION_DDOT":0},
         {"OBJECT_NAME":"BROKEN","NORAD_CAT_ID":"5","EPOCH":"yesterday"}]
        """
        let f = try ElementSetFile(bytes: Array(json.utf8))
        #expect(f.format == .ommJSON)
        #expect(f.entries.count == 1)
        #expect(f.problems.map(\.description) == ["record 2, satellite BROKEN: keyword MEAN_MOTION is missing"])
        // The same satellite as the TLE, to the TLE's precision.
        let tle = try TLEParser.parse(line1: Substring(TLEParserTests.line1), line2: Substring(TLEParserTests.line2))
        let a = try SGP4(f.entries[0].elements).propagate(minutesSinceEpoch: 1440)
        let b = try SGP4(tle).propagate(minutesSinceEpoch: 1440)
        #expect((a.positionKm - b.positionKm).length < 0.01)
    }

    @Test func ommXML() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ndm><omm id="CCSDS_OMM_VERS" version="2.0"><header><CREATION_DATE/><ORIGINATOR/></header><body>
        <segment><metadata><OBJECT_NAME>ISS (ZARYA)</OBJECT_NAME><OBJECT_ID>1998-067A</OBJECT_ID><CENTER_NAME>EARTH</CENTER_NAME>
        <REF_FRAME>TEME</REF_FRAME><TIME_SYSTEM>UTC</TIME_SYSTEM><MEAN_ELEMENT_THEORY>SGP4</MEAN_ELEMENT_THEORY></metadata>
        <data><meanElements><EPOCH>2026-09-24T03:24:21.452544</EPOCH><MEAN_MOTION>15.49258637</MEAN_MOTION>
        <ECCENTRICITY>.0004691</ECCENTRICITY><INCLINATION>51.6318</INCLINATION><RA_OF_ASC_NODE>170.3464</RA_OF_ASC_NODE>
        <ARG_OF_PERICENTER>174.6338</ARG_OF_PERICENTER><MEAN_ANOMALY>185.4701</MEAN_ANOMALY></meanElements>
        <tleParameters><EPHEMERIS_TYPE>0</EPHEMERIS_TYPE><CLASSIFICATION_TYPE>U</CLASSIFICATION_TYPE><NORAD_CAT_ID>25544</NORAD_CAT_ID>
        <ELEMENT_SET_NO>999</ELEMENT_SET_NO><REV_AT_EPOCH>58709</REV_AT_EPOCH><BSTAR>.18116E-3</BSTAR>
        <MEAN_MOTION_DOT>.9634E-4</MEAN_MOTION_DOT><MEAN_MOTION_DDOT>0</MEAN_MOTION_DDOT></tleParameters></data></segment>
        <segment><metadata><OBJECT_NAME>NO EPOCH</OBJECT_NAME></metadata><data></data></segment>
        </body></omm></ndm>
        """
        let f = try ElementSetFile(bytes: Array(xml.utf8))
        #expect(f.format == .ommXML)
        #expect(f.entries.map(\.elements.noradID) == [25_544])
        #expect(f.entries.first?.elements.name == "ISS (ZARYA)")
        #expect(f.entries.first?.line == 3)
        #expect(f.problems.map(\.description) == ["line 11, satellite NO EPOCH: keyword EPOCH is missing"])
    }

    @Test func limitsAndNonText() {
        #expect(throws: ElementSetError.self) { try ElementSetFile(bytes: [0xFF, 0xFE, 0x00]) }
        #expect(throws: ElementSetError.self) { try ElementSetFile(bytes: Array(repeating: 0x20, count: ElementSetFile.maxBytes + 1)) }
        #expect(throws: ElementSetError.self) { try ElementSetFile(bytes: Array("[1, 2".utf8)) }
    }

    @Test func catalogueIdsSlugsAndOverrides() throws {
        let bundled = try Self.file(Self.iss)
        var newer = Self.iss
        newer[0] = "ISS"
        let operatorFile = try Self.file(newer + Self.noaa)
        let c = SatelliteCatalogue(files: [("bundled", bundled), ("ops.tle", operatorFile)], reservedNames: ["moon"])
        #expect(c.satellites.map(\.id) == ["iss", "norad:33591"])
        #expect(c.satellite(named: "iss")?.source == "ops.tle")
        #expect(c.satellite(named: "norad:33591")?.elements.name == "NOAA 19")
        #expect(c.satellite(named: "noaa-19")?.noradID == 33_591)
        #expect(c.satellite(named: "norad:033591") == nil)
        #expect(SatelliteCatalogue.slug("ISS (ZARYA)") == "iss-zarya")
        #expect(SatelliteCatalogue.slug("  --  ") == nil)
    }

    @Test func aSetSGP4RejectsIsAProblemNamingIt() throws {
        // The verification set's 33334: mean motion 0.00001 rev/day, rejected at epoch (error 3).
        let lines = ["33334",
                     "1 33334U 78066F   06174.85818871  .00000620  00000-0  10000-3 0  6809",
                     "2 33334  68.4714 236.1303 5602877 123.7484 302.5767  0.00001000 67521"]
        let f = try Self.file(lines)
        #expect(f.problems.map(\.description) == ["line 2, satellite 33334: checksum (column 69) is 9, the line's digits give 6"])
        var fixed = lines
        fixed[1] = String(fixed[1].dropLast()) + "6"
        let c = SatelliteCatalogue(files: [("f", try Self.file(fixed))], reservedNames: [])
        #expect(c.satellites.isEmpty)
        #expect(c.problems.map(\.error.description).first?.hasPrefix("line 1, satellite 33334: SGP4 rejects the set at its epoch: perturbed eccentricity") == true)
    }
}
