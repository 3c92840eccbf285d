#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// CCSDS Orbit Mean-Elements Messages (CCSDS 502.0-B-2) with SGP4 mean elements, as CelesTrak
/// serves them (`FORMAT=json`: an array of flat records, numbers as numbers; Space-Track's
/// numbers as strings are read too; `FORMAT=xml`: `<segment>` blocks of the same keywords).
enum OMMParser {
    /// The keywords an SGP4 record needs, and those it may have.
    static let required = ["EPOCH", "MEAN_MOTION", "ECCENTRICITY", "INCLINATION", "RA_OF_ASC_NODE",
                           "ARG_OF_PERICENTER", "MEAN_ANOMALY", "NORAD_CAT_ID", "BSTAR"]

    /// Decodes every value of a record as text, whether JSON wrote it as a number or a string.
    struct Record: Decodable {
        var fields: [String: String] = [:]
        var failure: String?

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) {
            do {
                let c = try decoder.container(keyedBy: Key.self)
                for key in c.allKeys {
                    if let s = try? c.decode(String.self, forKey: key) {
                        fields[key.stringValue] = s
                    } else if let d = try? c.decode(Double.self, forKey: key) {
                        // Integers print without a fraction; others as Swift spells the double.
                        fields[key.stringValue] = d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
                    } else if (try? c.decodeNil(forKey: key)) == true {
                        continue
                    }
                }
            } catch {
                failure = "not a JSON object of OMM keywords"
            }
        }
    }

    static func parseJSON(_ bytes: [UInt8]) throws(ElementSetError) -> ([ElementSetFile.Entry], [ElementSetError]) {
        let records: [Record]
        do {
            let data = Data(bytes)
            if let list = try? JSONDecoder().decode([Record].self, from: data) {
                records = list
            } else {
                records = [try JSONDecoder().decode(Record.self, from: data)]
            }
        } catch {
            throw ElementSetError(reason: "not OMM JSON: an array of records (CelesTrak's FORMAT=json) or one record was expected")
        }
        guard records.count <= ElementSetFile.maxSets else {
            throw ElementSetError(reason: "\(records.count) records; at most \(ElementSetFile.maxSets) are read")
        }
        var entries: [ElementSetFile.Entry] = []
        var problems: [ElementSetError] = []
        for (k, r) in records.enumerated() {
            if let failure = r.failure {
                problems.append(ElementSetError(record: k + 1, reason: failure))
                continue
            }
            do {
                entries.append(ElementSetFile.Entry(elements: try elements(r.fields), line: nil, record: k + 1))
            } catch {
                var e = error
                e.record = k + 1
                problems.append(e)
            }
        }
        return (entries, problems)
    }

    static func parseXML(_ text: String) -> ([ElementSetFile.Entry], [ElementSetError]) {
        var entries: [ElementSetFile.Entry] = []
        var problems: [ElementSetError] = []
        let bytes = Array(text.utf8)
        var index = 0
        var line = 1
        var lineCountedTo = 0
        while let open = find(Array("<segment".utf8), in: bytes, from: index) {
            for b in bytes[lineCountedTo..<open] where b == 0x0A { line += 1 }
            lineCountedTo = open
            guard let close = find(Array("</segment>".utf8), in: bytes, from: open) else {
                problems.append(ElementSetError(line: line, reason: "<segment> without </segment>"))
                break
            }
            guard entries.count < ElementSetFile.maxSets else {
                problems.append(ElementSetError(line: line, reason: "more than \(ElementSetFile.maxSets) element sets: the rest of the file is not read"))
                break
            }
            var fields: [String: String] = [:]
            var p = open + 1
            // Leaf elements `<KEY attr…>value</KEY>`.
            while let lt = find([UInt8(ascii: "<")], in: bytes, from: p), lt < close {
                guard let gt = find([UInt8(ascii: ">")], in: bytes, from: lt), gt < close else { break }
                let tag = bytes[(lt + 1)..<gt]
                p = gt + 1
                guard let first = tag.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "?"), first != UInt8(ascii: "!") else { continue }
                let name = String(decoding: tag.prefix { $0 != 0x20 && $0 != UInt8(ascii: "/") }, as: UTF8.self)
                guard let end = find(Array("</\(name)>".utf8), in: bytes, from: p), end < close else { continue }
                let value = bytes[p..<end]
                if !value.contains(UInt8(ascii: "<")) {
                    fields[name] = xmlUnescaped(String(decoding: value, as: UTF8.self).trimmingSpaces)
                }
            }
            do {
                entries.append(ElementSetFile.Entry(elements: try elements(fields), line: line, record: nil))
            } catch {
                var e = error
                e.line = line
                problems.append(e)
            }
            index = close + 10
        }
        if entries.isEmpty && problems.isEmpty {
            problems.append(ElementSetError(line: 1, reason: "no OMM <segment> found in the XML"))
        }
        return (entries, problems)
    }

    /// The element set of one record's keywords.
    static func elements(_ f: [String: String]) throws(ElementSetError) -> ElementSet {
        let name = f["OBJECT_NAME"]
        let who = name ?? f["NORAD_CAT_ID"]
        if let missing = required.first(where: { f[$0] == nil }) {
            throw ElementSetError(satellite: who, reason: "keyword \(missing) is missing")
        }
        if let theory = f["MEAN_ELEMENT_THEORY"], theory.uppercased() != "SGP4" {
            throw ElementSetError(satellite: who, reason: "MEAN_ELEMENT_THEORY is \(theory); only SGP4 elements are read")
        }
        func number(_ key: String) throws(ElementSetError) -> Double {
            guard let text = f[key], let v = Double(text.trimmingSpaces), v.isFinite else {
                throw ElementSetError(satellite: who, reason: "\(key) is \"\(f[key] ?? "")\", not a number")
            }
            return v
        }
        guard let norad = Int(f["NORAD_CAT_ID"]!.trimmingSpaces), norad > 0, norad < 1_000_000_000 else {
            throw ElementSetError(satellite: who, reason: "NORAD_CAT_ID is \"\(f["NORAD_CAT_ID"]!)\", not a catalogue number")
        }
        guard let epoch = epoch(f["EPOCH"]!) else {
            throw ElementSetError(satellite: who, reason: "EPOCH is \"\(f["EPOCH"]!)\"; expected YYYY-MM-DDThh:mm:ss[.ffffff] UTC")
        }
        let set = ElementSet(
            name: name, noradID: norad, classification: f["CLASSIFICATION_TYPE"]?.first ?? "U",
            internationalDesignator: f["OBJECT_ID"] ?? "",
            epochJDWhole: epoch.whole, epochJDFraction: epoch.fraction,
            meanMotionDotRevPerDay2: (try? number("MEAN_MOTION_DOT")) ?? 0,
            meanMotionDDotRevPerDay3: (try? number("MEAN_MOTION_DDOT")) ?? 0,
            bstarPerEarthRadius: try number("BSTAR"),
            inclinationDeg: try number("INCLINATION"), raanDeg: try number("RA_OF_ASC_NODE"),
            eccentricity: try number("ECCENTRICITY"), argumentOfPerigeeDeg: try number("ARG_OF_PERICENTER"),
            meanAnomalyDeg: try number("MEAN_ANOMALY"), meanMotionRevPerDay: try number("MEAN_MOTION"),
            elementSetNumber: Int(f["ELEMENT_SET_NO"] ?? "") ?? 0, revolutionNumber: Int(f["REV_AT_EPOCH"] ?? "") ?? 0)
        guard (0...180).contains(set.inclinationDeg) else { throw ElementSetError(satellite: who, reason: "INCLINATION \(set.inclinationDeg)° is outside 0…180°") }
        guard (0..<1).contains(set.eccentricity) else { throw ElementSetError(satellite: who, reason: "ECCENTRICITY \(set.eccentricity) is outside 0 ≤ e < 1") }
        guard set.meanMotionRevPerDay > 0 else { throw ElementSetError(satellite: who, reason: "MEAN_MOTION \(set.meanMotionRevPerDay) rev/day is not positive") }
        return set
    }

    /// `2026-11-25T12:34:56.789012` (a trailing `Z` allowed) as a two-part UTC Julian date.
    static func epoch(_ text: String) -> (whole: Double, fraction: Double)? {
        var t = Array(text.trimmingSpaces.utf8)
        if t.last == UInt8(ascii: "Z") { t.removeLast() }
        guard t.count >= 19, t[4] == UInt8(ascii: "-"), t[7] == UInt8(ascii: "-"), t[10] == UInt8(ascii: "T"),
              t[13] == UInt8(ascii: ":"), t[16] == UInt8(ascii: ":") else { return nil }
        func int(_ r: Range<Int>) -> Int? {
            guard t[r].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(String(decoding: t[r], as: UTF8.self))
        }
        guard let y = int(0..<4), let mo = int(5..<7), let d = int(8..<10), let h = int(11..<13), let mi = int(14..<16),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60,
              let s = Double(String(decoding: t[17...], as: UTF8.self)), s >= 0, s < 61 else { return nil }
        let a = (14 - mo) / 12
        let yy = y + 4800 - a
        let m = mo + 12 * a - 3
        let jdn = d + (153 * m + 2) / 5 + 365 * yy + yy / 4 - yy / 100 + yy / 400 - 32045
        return (Double(jdn) - 0.5, (Double(h * 3600 + mi * 60) + s) / 86_400)
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count, start <= hay.count - needle.count else { return nil }
        var i = start
        let last = hay.count - needle.count
        while i <= last {
            if hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    static func xmlUnescaped(_ s: String) -> String {
        guard s.contains("&") else { return s }
        return s.replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"").replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }
}
