import ArgumentParser
import Foundation
import Satellites
import SolarSystemAPI

/// `solarsystem bench element-sets`: reading element-set files at the limits (100,000 sets or
/// 32 MiB) in every format — TLE, OMM JSON and OMM XML as CelesTrak writes them, and XML
/// shaped against a searching parser (one `<segment>` of a million children) — then building the
/// catalogue (SGP4 initialised for every set). Prints the median time of each and the resident
/// memory the process reached, against the goal of 2 s for 32 MiB of OMM.
struct ElementSetBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "element-sets",
        abstract: "Median time to read 32 MiB element-set files (TLE, OMM JSON, OMM XML, hostile XML) and build their catalogue."
    )

    @Option(help: "Runs per file; the median is reported.")
    var runs: Int = 5

    @Option(help: "One file only: tle, json, xml or hostile-xml (the peak memory is then that file's).")
    var only: String?

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard runs > 0 else { throw ValidationError("--runs must be positive") }
        Bench.warnIfDebug("element-sets")
        let files: [(key: String, label: String, make: () -> [UInt8])] = [
            ("tle", "TLE", { Self.tle(count: ElementSetFile.maxSets) }),
            ("json", "OMM JSON", { Self.json(count: ElementSetFile.maxSets) }),
            ("xml", "OMM XML", { Self.xml(count: ElementSetFile.maxSets) }),
            ("hostile-xml", "OMM XML, one segment of many children", { Self.hostileXML() }),
        ]
        if let only, !files.contains(where: { $0.key == only }) { throw ValidationError("--only takes tle, json, xml or hostile-xml") }
        for (key, label, make) in files where only == nil || only == key {
            let bytes = make()
            var read = Bench.Samples(), build = Bench.Samples()
            var sets = 0, problems = 0
            for _ in 0..<runs {
                let file = try read.time { try ElementSetFile(bytes: bytes) }
                let catalogue = build.time { SatelliteCatalogue(files: [("bench", file)], reservedNames: []) }
                sets = catalogue.satellites.count
                problems = file.problems.count
            }
            print(String(format: "element sets: %@, %.1f MiB: read median %.0f ms, catalogue (SGP4 for each) %.0f ms; %d sets, %d problems; resident %.0f MiB, peak %.0f MiB",
                         label, Double(bytes.count) / 1_048_576, read.median.cpuNs / 1e6, build.median.cpuNs / 1e6, sets, problems,
                         Self.residentMiB("VmRSS:"), Self.residentMiB("VmHWM:")))
        }
    }

    /// A field of /proc/self/status (Linux: `VmRSS:` now, `VmHWM:` the peak), MiB.
    static func residentMiB(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kb / 1024
    }

    /// Up to `count` distinct sets (catalogue numbers 1…count, the mean anomaly varied; the
    /// ISS's other elements) as CelesTrak's 3-line TLE, within the size limit.
    static func tle(count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * 170)
        for i in 0..<count where out.count + 200 <= ElementSetFile.maxBytes {
            let norad = alpha5(i + 1)
            let line1 = "1 " + norad + "U 98067A   26267.14191496  .00009634  00000+0  18116-3 0  999"
            let ma = String(format: "%08.4f", Double(i % 3600) / 10)
            let line2 = "2 " + norad + "  51.6318 170.3464 0004691 174.6338 " + ma + " 15.49258637587098"
            out += Array("SAT \(i + 1)\n".utf8)
            out += Array((line1 + String(TLEParser.checksum(Array(line1.utf8)[...])) + "\n").utf8)
            out += Array((String(line2.prefix(68)) + String(TLEParser.checksum(Array(line2.utf8).prefix(68))) + "\n").utf8)
        }
        return out
    }

    /// A catalogue number in a TLE's five columns: digits, or Alpha-5 (A = 10 … Z, no I or O) from 100,000.
    static func alpha5(_ n: Int) -> String {
        guard n >= 100_000 else { return String(repeating: "0", count: 5 - String(n).count) + String(n) }
        let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
        let tail = String(n % 10_000)
        return String(letters[n / 10_000 - 10]) + String(repeating: "0", count: 4 - tail.count) + tail
    }

    /// The same as CelesTrak's OMM JSON, as many as fit the size limit.
    static func json(count: Int) -> [UInt8] {
        var out = Array("[".utf8)
        out.reserveCapacity(ElementSetFile.maxBytes)
        for i in 0..<count where out.count + 500 <= ElementSetFile.maxBytes {
            if i > 0 { out += Array(",\n".utf8) }
            out += Array("""
            {"OBJECT_NAME":"SAT \(i + 1)","OBJECT_ID":"1998-067A","EPOCH":"2026-09-24T03:24:21.452544","MEAN_MOTION":15.49258637,\
            "ECCENTRICITY":0.0004691,"INCLINATION":51.6318,"RA_OF_ASC_NODE":170.3464,"ARG_OF_PERICENTER":174.6338,\
            "MEAN_ANOMALY":\(Double(i % 3600) / 10),"EPHEMERIS_TYPE":0,"CLASSIFICATION_TYPE":"U","NORAD_CAT_ID":\(i + 1),\
            "ELEMENT_SET_NO":999,"REV_AT_EPOCH":58709,"BSTAR":0.00018116,"MEAN_MOTION_DOT":9.634e-5,"MEAN_MOTION_DDOT":0}
            """.utf8)
        }
        return out + Array("]\n".utf8)
    }

    /// The same as CelesTrak's OMM XML, as many as fit the size limit.
    static func xml(count: Int) -> [UInt8] {
        var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ndm>\n".utf8)
        out.reserveCapacity(ElementSetFile.maxBytes)
        for i in 0..<count where out.count + 1_200 <= ElementSetFile.maxBytes {
            out += Array("""
            <omm id="CCSDS_OMM_VERS" version="2.0"><header><CREATION_DATE/><ORIGINATOR/></header><body><segment><metadata>\
            <OBJECT_NAME>SAT \(i + 1)</OBJECT_NAME><OBJECT_ID>1998-067A</OBJECT_ID><CENTER_NAME>EARTH</CENTER_NAME><REF_FRAME>TEME</REF_FRAME>\
            <TIME_SYSTEM>UTC</TIME_SYSTEM><MEAN_ELEMENT_THEORY>SGP4</MEAN_ELEMENT_THEORY></metadata><data><meanElements>\
            <EPOCH>2026-09-24T03:24:21.452544</EPOCH><MEAN_MOTION>15.49258637</MEAN_MOTION><ECCENTRICITY>.0004691</ECCENTRICITY>\
            <INCLINATION>51.6318</INCLINATION><RA_OF_ASC_NODE>170.3464</RA_OF_ASC_NODE><ARG_OF_PERICENTER>174.6338</ARG_OF_PERICENTER>\
            <MEAN_ANOMALY>\(Double(i % 3600) / 10)</MEAN_ANOMALY></meanElements><tleParameters><EPHEMERIS_TYPE>0</EPHEMERIS_TYPE>\
            <CLASSIFICATION_TYPE>U</CLASSIFICATION_TYPE><NORAD_CAT_ID>\(i + 1)</NORAD_CAT_ID><ELEMENT_SET_NO>999</ELEMENT_SET_NO>\
            <REV_AT_EPOCH>58709</REV_AT_EPOCH><BSTAR>.18116E-3</BSTAR><MEAN_MOTION_DOT>.9634E-4</MEAN_MOTION_DOT>\
            <MEAN_MOTION_DDOT>0</MEAN_MOTION_DDOT></tleParameters></data></segment></body></omm>\n
            """.utf8)
        }
        return out + Array("</ndm>\n".utf8)
    }

    /// One `<segment>` holding leaf after leaf and start tags never closed, to the size limit:
    /// the shape that made a parser searching each end tag to the end of the file quadratic.
    static func hostileXML() -> [UInt8] {
        var out = Array("<ndm><segment>".utf8)
        let unit = Array("<MEAN_MOTION>1</MEAN_MOTION><open>".utf8)
        let tail = Array("</segment></ndm>\n".utf8)
        out.reserveCapacity(ElementSetFile.maxBytes)
        while out.count + unit.count + tail.count <= ElementSetFile.maxBytes { out += unit }
        return out + tail
    }
}
