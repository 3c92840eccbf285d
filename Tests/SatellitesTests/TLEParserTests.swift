import Testing
@testable import Satellites

@Suite struct TLEParserTests {
    static let name = "ISS (ZARYA)"
    static let line1 = "1 25544U 98067A   26267.14191496  .00009634  00000+0  18116-3 0  9999"
    static let line2 = "2 25544  51.6318 170.3464 0004691 174.6338 185.4701 15.49258637587098"

    static func replacing(_ line: String, at column: Int, with text: String) -> Substring {
        var chars = Array(line)
        for (k, c) in text.enumerated() { chars[column - 1 + k] = c }
        return Substring(String(chars))
    }

    @Test func readsEveryFieldOfARealSet() throws {
        let e = try TLEParser.parse(line1: Substring(Self.line1), line2: Substring(Self.line2), name: Self.name)
        #expect(e.noradID == 25_544)
        #expect(e.name == "ISS (ZARYA)")
        #expect(e.classification == "U")
        #expect(e.internationalDesignator == "98067A")
        // 2026 day 267.14191496: 24 September 2026 03:24:21.45 UTC.
        #expect(e.epochJDWhole == 2_461_307.5)
        #expect(abs(e.epochJDFraction - 0.14191496) < 1e-12)
        #expect(e.meanMotionDotRevPerDay2 == 0.00009634)
        #expect(e.meanMotionDDotRevPerDay3 == 0)
        #expect(abs(e.bstarPerEarthRadius - 0.18116e-3) < 1e-18)
        #expect(e.inclinationDeg == 51.6318)
        #expect(e.raanDeg == 170.3464)
        #expect(e.eccentricity == 0.0004691)
        #expect(e.argumentOfPerigeeDeg == 174.6338)
        #expect(e.meanAnomalyDeg == 185.4701)
        #expect(e.meanMotionRevPerDay == 15.49258637)
        #expect(e.elementSetNumber == 999)
        #expect(e.revolutionNumber == 58_709)
    }

    @Test func epochYearsPivotAt1957() {
        #expect(ElementSet.epoch(twoDigitYear: 57, dayOfYear: 1).whole == 2_435_839.5) // 1957-01-01
        #expect(ElementSet.epoch(twoDigitYear: 56, dayOfYear: 1).whole == 2_471_998.5) // 2056-01-01
        #expect(ElementSet.epoch(twoDigitYear: 0, dayOfYear: 1.5) == (2_451_544.5, 0.5))
    }

    @Test func checksumErrorsNameTheLineAndTheDigits() {
        let bad = Self.replacing(Self.line1, at: 69, with: "3")
        #expect(throws: ElementSetError(line: 7, satellite: "ISS", reason: "checksum (column 69) is 3, the line's digits give 9")) {
            try TLEParser.parse(line1: bad, line2: Substring(Self.line2), name: "ISS", line1Number: 7)
        }
        let bad2 = Self.replacing(Self.line2, at: 69, with: "0")
        #expect(throws: ElementSetError(line: 8, satellite: "25544", reason: "checksum (column 69) is 0, the line's digits give 8")) {
            try TLEParser.parse(line1: Substring(Self.line1), line2: bad2, line1Number: 7)
        }
        // Each minus sign counts one: 1 + 1 + 1 + 9.
        #expect(TLEParser.checksum(ArraySlice(Array("1 -- 9".utf8))) == 2)
    }

    @Test func columnErrorsNameTheField() {
        func reason(_ l1: Substring, _ l2: Substring) -> String {
            do {
                _ = try TLEParser.parse(line1: l1, line2: l2, verifyChecksums: false)
                return "parsed"
            } catch { return error.reason }
        }
        let l1 = Substring(Self.line1), l2 = Substring(Self.line2)
        #expect(reason(l1.dropLast(), l2) == "line 1 has 68 characters; a TLE line has 69")
        #expect(reason(l1, Self.replacing(Self.line2, at: 9, with: " 51.x318")) == "inclination (columns 9–16) is \" 51.x318\", not a number")
        #expect(reason(l1, Self.replacing(Self.line2, at: 27, with: "00-4691")).hasPrefix("eccentricity (columns 27–33)"))
        #expect(reason(Self.replacing(Self.line1, at: 54, with: " 18116x3"), l2).hasPrefix("B* drag term (columns 54–61) is \" 18116x3\""))
        #expect(reason(l1, Self.replacing(Self.line2, at: 3, with: "25545")) == "line 2's catalogue number 25545 is not line 1's 25544")
        #expect(reason(Self.replacing(Self.line1, at: 1, with: "3"), l2) == "line 1 must start with \"1 \"")
        #expect(reason(l1, Self.replacing(Self.line2, at: 9, with: "191.6318")) == "inclination 191.6318° is outside 0…180°")
        #expect(reason(Self.replacing(Self.line1, at: 19, with: "2x"), l2) == "epoch year (columns 19–20) is \"2x\", not two digits")
    }

    @Test func alpha5CatalogueNumbers() throws {
        let l1 = Self.replacing(Self.line1, at: 3, with: "A0001"), l2 = Self.replacing(Self.line2, at: 3, with: "A0001")
        #expect(try TLEParser.parse(line1: l1, line2: l2, verifyChecksums: false).noradID == 100_001)
        let z1 = Self.replacing(Self.line1, at: 3, with: "Z9999"), z2 = Self.replacing(Self.line2, at: 3, with: "Z9999")
        #expect(try TLEParser.parse(line1: z1, line2: z2, verifyChecksums: false).noradID == 339_999)
        let i1 = Self.replacing(Self.line1, at: 3, with: "I0001"), i2 = Self.replacing(Self.line2, at: 3, with: "I0001")
        #expect(throws: ElementSetError.self) { try TLEParser.parse(line1: i1, line2: i2, verifyChecksums: false) }
    }

    @Test func impliedDecimalFields() {
        #expect(TLEParser.impliedDecimalExponent(" 28098-4") == 0.28098e-4)
        #expect(TLEParser.impliedDecimalExponent("-11606-4") == -0.11606e-4)
        #expect(TLEParser.impliedDecimalExponent(" 00000+0") == 0)
        #expect(TLEParser.impliedDecimalExponent("  13519-0") == 0.13519)
        #expect(TLEParser.impliedDecimalExponent(" 12345") == nil)
        #expect(TLEParser.plainDecimal("-.00000084") == -0.00000084)
        #expect(TLEParser.plainDecimal(".5") == 0.5)
        #expect(TLEParser.plainDecimal("1e5") == nil)
        #expect(TLEParser.plainDecimal("nan") == nil)
    }

    /// The verification set's checksums: the paper's error cases carry wrong ones on purpose
    /// (python-sgp4's tests list the same lines).
    @Test func verificationSetChecksums() {
        let lines = Fixtures.text("SGP4-VER.TLE").split(whereSeparator: \.isNewline).filter { $0.hasPrefix("1 ") || $0.hasPrefix("2 ") }
        let bad = lines.filter { l in
            let l = Array(l.prefix(69).utf8)
            return l.count == 69 && Int(l[68]) - 0x30 != TLEParser.checksum(l[0..<68])
        }.map { "\($0.prefix(1)):\($0.dropFirst(2).prefix(5))" }
        #expect(bad == ["1:33333", "2:33333", "1:33334", "1:33335", "2:33335"])
    }
}
