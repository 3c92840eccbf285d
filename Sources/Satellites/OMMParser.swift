import Ephemeris

/// CCSDS Orbit Mean-Elements Messages (CCSDS 502.0-B-2) with SGP4 mean elements, as CelesTrak
/// serves them (`FORMAT=json`: an array of flat records, numbers as numbers; Space-Track's
/// numbers as strings are read too; `FORMAT=xml`: `<segment>` blocks of the same keywords).
///
/// Both readers make one pass over the bytes (a file at the 32 MiB limit parses in well under a
/// second whatever its shape) and keep only the keywords an element set uses, one record at a
/// time: memory stays the file plus the sets. XML entities other than the five predefined ones
/// are never expanded (no DTD, no external entities).
enum OMMParser {
    /// The keywords an SGP4 record needs, and those it may have.
    static let required = ["EPOCH", "MEAN_MOTION", "ECCENTRICITY", "INCLINATION", "RA_OF_ASC_NODE",
                           "ARG_OF_PERICENTER", "MEAN_ANOMALY", "NORAD_CAT_ID", "BSTAR"]
    static let optional = ["OBJECT_NAME", "OBJECT_ID", "CLASSIFICATION_TYPE", "MEAN_MOTION_DOT", "MEAN_MOTION_DDOT",
                           "ELEMENT_SET_NO", "REV_AT_EPOCH", "MEAN_ELEMENT_THEORY"]
    /// The keywords kept from a record (others, and their values, are skipped).
    static let keptKeys: [(bytes: [UInt8], name: String)] = (required + optional).map { (Array($0.utf8), $0) }
    /// A keyword's value longer than this is not an element set's (the longest, a name, is
    /// capped at ``ElementSetFile/maxNameLength``; numbers are a few dozen characters).
    static let maxValueBytes = 4096

    // MARK: - JSON

    /// An array of flat OMM objects (CelesTrak's `FORMAT=json`) or one object. Throws when the
    /// bytes are not such JSON at all; a record that is not an object of keywords, or not a
    /// usable set, is a problem of that record.
    static func parseJSON(_ bytes: [UInt8], interrupt: Interrupt = .never) throws(ElementSetError) -> ([ElementSetFile.Entry], [ElementSetError]) {
        var scanner = JSONScanner(bytes)
        var entries: [ElementSetFile.Entry] = []
        var problems: [ElementSetError] = []
        let notOMM = "not OMM JSON: an array of records (CelesTrak's FORMAT=json) or one record was expected"
        do {
            scanner.skipSpace()
            if scanner.peek == UInt8(ascii: "{") {
                let fields = try scanner.flatObject()
                scanner.skipSpace()
                guard scanner.atEnd else { throw JSONScanner.Failure(offset: scanner.offset, reason: "text after the record") }
                record(fields, number: 1, into: &entries, &problems)
                return (entries, problems)
            }
            try scanner.expect(UInt8(ascii: "["))
            scanner.skipSpace()
            var number = 0
            if scanner.peek == UInt8(ascii: "]") {
                scanner.advance()
            } else {
                while true {
                    number += 1
                    if number % 256 == 0 {
                        do { try interrupt.check() } catch { throw ElementSetError(reason: "reading stopped: \(error.cause)") }
                    }
                    guard number <= ElementSetFile.maxSets else {
                        throw ElementSetError(reason: "more than \(ElementSetFile.maxSets) records; at most \(ElementSetFile.maxSets) are read")
                    }
                    scanner.skipSpace()
                    if scanner.peek == UInt8(ascii: "{") {
                        record(try scanner.flatObject(), number: number, into: &entries, &problems)
                    } else {
                        try scanner.skipValue()
                        problems.append(ElementSetError(record: number, reason: "not a JSON object of OMM keywords"))
                    }
                    scanner.skipSpace()
                    if scanner.peek == UInt8(ascii: ",") { scanner.advance(); continue }
                    try scanner.expect(UInt8(ascii: "]"))
                    break
                }
            }
            scanner.skipSpace()
            guard scanner.atEnd else { throw JSONScanner.Failure(offset: scanner.offset, reason: "text after the array") }
        } catch let failure as JSONScanner.Failure {
            throw ElementSetError(reason: "\(notOMM) (\(failure.reason) at byte \(failure.offset + 1))")
        } catch let error as ElementSetError {
            throw error
        } catch {
            throw ElementSetError(reason: notOMM)
        }
        return (entries, problems)
    }

    /// One record's keywords as an entry or a problem.
    private static func record(_ r: JSONScanner.Record, number: Int, into entries: inout [ElementSetFile.Entry], _ problems: inout [ElementSetError]) {
        if let failure = r.failure {
            problems.append(ElementSetError(record: number, reason: failure))
            return
        }
        do {
            entries.append(ElementSetFile.Entry(elements: try elements(r.fields), line: nil, record: number))
        } catch {
            var e = error
            e.record = number
            problems.append(e)
        }
    }

    // MARK: - XML

    /// `<segment>` blocks of leaf elements `<KEYWORD>value</KEYWORD>` (CelesTrak's
    /// `FORMAT=xml`, the CCSDS NDM/XML schema): one pass over the tags, a leaf's text taken when
    /// its end tag follows its start tag with no tag between.
    static func parseXML(_ bytes: [UInt8], interrupt: Interrupt = .never) -> ([ElementSetFile.Entry], [ElementSetError]) {
        var entries: [ElementSetFile.Entry] = []
        var problems: [ElementSetError] = []
        var tags = XMLTagScanner(bytes)
        var segment: (line: Int, fields: [String: String])?
        var leaf: (name: ArraySlice<UInt8>, textStart: Int)?
        var segments = 0
        let segmentName = Array("segment".utf8)[...]
        while let tag = tags.next() {
            switch tag.kind {
            case .start(let name):
                if name.elementsEqual(segmentName) {
                    if let open = segment {
                        problems.append(ElementSetError(line: open.line, reason: "<segment> without </segment>"))
                    }
                    segments += 1
                    if segments % 256 == 0, (try? interrupt.check()) == nil {
                        problems.append(ElementSetError(line: tag.line, reason: "reading stopped: the server is stopping"))
                        return (entries, problems)
                    }
                    guard entries.count < ElementSetFile.maxSets else {
                        problems.append(ElementSetError(line: tag.line, reason: "more than \(ElementSetFile.maxSets) element sets: the rest of the file is not read"))
                        return (entries, problems)
                    }
                    segment = (tag.line, [:])
                    leaf = nil
                } else {
                    leaf = (name, tag.end)
                }
            case .end(let name):
                if name.elementsEqual(segmentName) {
                    if let open = segment {
                        do {
                            entries.append(ElementSetFile.Entry(elements: try elements(open.fields), line: open.line, record: nil))
                        } catch {
                            var e = error
                            e.line = open.line
                            problems.append(e)
                        }
                    }
                    segment = nil
                    leaf = nil
                } else if let l = leaf, l.name.elementsEqual(name), segment != nil {
                    let value = bytes[l.textStart..<tag.start]
                    if let key = keptKeys.first(where: { $0.bytes.count == name.count && $0.bytes.elementsEqual(name) })?.name {
                        segment?.fields[key] = value.count > maxValueBytes ? String(repeating: "?", count: maxValueBytes + 1)
                            : xmlUnescaped(String(decoding: value, as: UTF8.self).trimmingSpaces)
                    }
                    leaf = nil
                } else {
                    leaf = nil
                }
            case .other:
                leaf = nil
            }
        }
        if let open = segment {
            problems.append(ElementSetError(line: open.line, reason: "<segment> without </segment>"))
        }
        if entries.isEmpty && problems.isEmpty {
            problems.append(ElementSetError(line: 1, reason: "no OMM <segment> found in the XML"))
        }
        return (entries, problems)
    }

    // MARK: - keywords to elements

    /// The element set of one record's keywords.
    static func elements(_ f: [String: String]) throws(ElementSetError) -> ElementSet {
        let name = f["OBJECT_NAME"]
        let who = name.map { $0.utf8.count <= ElementSetFile.maxNameLength ? $0 : String($0.prefix(40)) + "…" } ?? f["NORAD_CAT_ID"]
        if let missing = required.first(where: { f[$0] == nil }) {
            throw ElementSetError(satellite: who, reason: "keyword \(missing) is missing")
        }
        if let name, name.utf8.count > ElementSetFile.maxNameLength {
            throw ElementSetError(satellite: who, reason: "OBJECT_NAME has \(name.utf8.count) bytes; a name has at most \(ElementSetFile.maxNameLength) (a TLE name line's limit)")
        }
        if let theory = f["MEAN_ELEMENT_THEORY"], theory.uppercased() != "SGP4" {
            throw ElementSetError(satellite: who, reason: "MEAN_ELEMENT_THEORY is \(theory.prefix(40)); only SGP4 elements are read")
        }
        func number(_ key: String) throws(ElementSetError) -> Double {
            guard let text = f[key], let v = Double(text.trimmingSpaces), v.isFinite else {
                throw ElementSetError(satellite: who, reason: "\(key) is \"\((f[key] ?? "").prefix(40))\", not a number")
            }
            return v
        }
        guard let norad = Int(f["NORAD_CAT_ID"]!.trimmingSpaces), norad > 0, norad < 1_000_000_000 else {
            throw ElementSetError(satellite: who, reason: "NORAD_CAT_ID is \"\(f["NORAD_CAT_ID"]!.prefix(40))\", not a catalogue number")
        }
        let epochText = f["EPOCH"]!
        let epoch: (whole: Double, fraction: Double)
        switch Self.epoch(epochText) {
        case .success(let e): epoch = e
        case .failure(let failure): throw ElementSetError(satellite: who, reason: "EPOCH is \"\(epochText.prefix(40))\": \(failure.reason)")
        }
        let set = ElementSet(
            name: name, noradID: norad, classification: f["CLASSIFICATION_TYPE"]?.first ?? "U",
            internationalDesignator: String((f["OBJECT_ID"] ?? "").prefix(ElementSetFile.maxNameLength)),
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
        for (key, value) in [("RA_OF_ASC_NODE", set.raanDeg), ("ARG_OF_PERICENTER", set.argumentOfPerigeeDeg), ("MEAN_ANOMALY", set.meanAnomalyDeg)] {
            guard (-360...360).contains(value) else { throw ElementSetError(satellite: who, reason: "\(key) \(value)° is outside −360…360°") }
        }
        return set
    }

    /// `2026-11-25T12:34:56.789012` (a trailing `Z` allowed) as a two-part UTC Julian date: a
    /// real calendar date (no 30 February) between ``ElementSetFile/epochYears``, the clock
    /// within its day (a leap second's 60 allowed).
    static func epoch(_ text: String) -> Result<(whole: Double, fraction: Double), EpochFailure> {
        let expected = EpochFailure("expected YYYY-MM-DDThh:mm:ss[.ffffff] UTC")
        var t = Array(text.trimmingSpaces.utf8)
        if t.last == UInt8(ascii: "Z") { t.removeLast() }
        guard t.count >= 19, t.count <= 40, t[4] == UInt8(ascii: "-"), t[7] == UInt8(ascii: "-"), t[10] == UInt8(ascii: "T"),
              t[13] == UInt8(ascii: ":"), t[16] == UInt8(ascii: ":") else { return .failure(expected) }
        func int(_ r: Range<Int>) -> Int? {
            guard t[r].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(String(decoding: t[r], as: UTF8.self))
        }
        // Seconds: two digits, then optionally a point and digits (no sign, no exponent).
        let secondsText = t[17...]
        let isDigit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        let fraction = secondsText.dropFirst(2)
        guard secondsText.prefix(2).count == 2, secondsText.prefix(2).allSatisfy(isDigit),
              fraction.isEmpty || (fraction.first == UInt8(ascii: ".") && fraction.dropFirst().allSatisfy(isDigit)),
              let y = int(0..<4), let mo = int(5..<7), let d = int(8..<10), let h = int(11..<13), let mi = int(14..<16),
              let s = Double(String(decoding: secondsText, as: UTF8.self)) else { return .failure(expected) }
        guard ElementSetFile.epochYears.contains(y) else {
            return .failure(EpochFailure("the year \(y) is outside \(ElementSetFile.epochYears.lowerBound)…\(ElementSetFile.epochYears.upperBound), the years element sets are read for"))
        }
        guard (1...12).contains(mo), (1...CivilDateTime.daysInMonth(year: y, month: mo)).contains(d) else {
            return .failure(EpochFailure("\(String(decoding: t[0..<10], as: UTF8.self)) is not a date"))
        }
        guard h < 24, mi < 60, s >= 0, s < 61 else { return .failure(EpochFailure("\(String(decoding: t[11...], as: UTF8.self)) is not a time of day")) }
        let a = (14 - mo) / 12
        let yy = y + 4800 - a
        let m = mo + 12 * a - 3
        let jdn = d + (153 * m + 2) / 5 + 365 * yy + yy / 4 - yy / 100 + yy / 400 - 32045
        return .success((Double(jdn) - 0.5, (Double(h * 3600 + mi * 60) + s) / 86_400))
    }

    struct EpochFailure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    static func xmlUnescaped(_ s: String) -> String {
        guard s.contains("&") else { return s }
        return s.replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"").replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }
}
