import Ephemeris

/// Reads two-line element sets by their fixed columns (Spacetrack Report #3 appendix; CelesTrak's
/// "TLE format" FAQ), with each line's checksum.
///
/// ```swift
/// let iss = try TLEParser.parse(line1: l1, line2: l2, name: "ISS (ZARYA)")
/// ```
public enum TLEParser {
    /// Characters a TLE line holds; the checksum is column 69.
    public static let lineLength = 69

    /// The element set of one TLE. `line1Number` is where line 1 sits in its file, for errors
    /// (line 2 is the next line). `verifyChecksums: false` is for the verification set, whose
    /// test records carry wrong checksums on purpose.
    public static func parse(line1 raw1: Substring, line2 raw2: Substring, name: String? = nil,
                             line1Number: Int = 1, verifyChecksums: Bool = true) throws(ElementSetError) -> ElementSet {
        let l1 = Array(trimmedTrailing(raw1).utf8)
        let l2 = Array(trimmedTrailing(raw2).utf8)
        let n1 = line1Number, n2 = line1Number + 1
        var satellite: String? = name
        func fail(_ line: Int, _ reason: String) -> ElementSetError {
            ElementSetError(line: line, satellite: satellite, reason: reason)
        }
        guard l1.count == lineLength else { throw fail(n1, "line 1 has \(l1.count) characters; a TLE line has \(lineLength)") }
        guard l2.count == lineLength else { throw fail(n2, "line 2 has \(l2.count) characters; a TLE line has \(lineLength)") }
        guard l1[0] == UInt8(ascii: "1"), l1[1] == space else { throw fail(n1, "line 1 must start with \"1 \"") }
        guard l2[0] == UInt8(ascii: "2"), l2[1] == space else { throw fail(n2, "line 2 must start with \"2 \"") }
        guard l1.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw fail(n1, "line 1 holds a character that is not printable ASCII") }
        guard l2.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw fail(n2, "line 2 holds a character that is not printable ASCII") }

        let number1 = try catalogueNumber(l1, line: n1)
        satellite = satellite ?? String(number1)
        let number2 = try catalogueNumber(l2, line: n2)
        guard number1 == number2 else {
            throw fail(n2, "line 2's catalogue number \(number2) is not line 1's \(number1)")
        }
        if verifyChecksums {
            for (line, number) in [(l1, n1), (l2, n2)] {
                let expected = checksum(line[0..<68])
                let given = line[68]
                guard given == UInt8(ascii: "0") + UInt8(expected) else {
                    throw fail(number, "checksum (column 69) is \(Character(UnicodeScalar(given))), the line's digits give \(expected)")
                }
            }
        }

        func field(_ line: [UInt8], _ columns: ClosedRange<Int>) -> String {
            String(decoding: line[(columns.lowerBound - 1)...(columns.upperBound - 1)], as: UTF8.self)
        }
        func decimal(_ line: [UInt8], _ number: Int, _ columns: ClosedRange<Int>, _ what: String, blankIsZero: Bool = false) throws(ElementSetError) -> Double {
            let text = field(line, columns).trimmingSpaces
            if text.isEmpty, blankIsZero { return 0 }
            guard let value = plainDecimal(text) else {
                throw fail(number, "\(what) (columns \(columns.lowerBound)–\(columns.upperBound)) is \"\(field(line, columns))\", not a number")
            }
            return value
        }
        func integer(_ line: [UInt8], _ number: Int, _ columns: ClosedRange<Int>, _ what: String) throws(ElementSetError) -> Int {
            let text = field(line, columns).trimmingSpaces
            if text.isEmpty { return 0 }
            guard let value = Int(text), value >= 0 else {
                throw fail(number, "\(what) (columns \(columns.lowerBound)–\(columns.upperBound)) is \"\(field(line, columns))\", not a whole number")
            }
            return value
        }
        func exponential(_ line: [UInt8], _ number: Int, _ columns: ClosedRange<Int>, _ what: String) throws(ElementSetError) -> Double {
            guard let value = impliedDecimalExponent(field(line, columns)) else {
                throw fail(number, "\(what) (columns \(columns.lowerBound)–\(columns.upperBound)) is \"\(field(line, columns))\"; expected the form ±NNNNN±E (e.g. \" 12345-3\" = 0.12345e-3)")
            }
            return value
        }

        let classification = Character(UnicodeScalar(l1[7]))
        guard "UCS ".contains(classification) else { throw fail(n1, "classification (column 8) is \"\(classification)\"; expected U, C or S") }
        let designator = field(l1, 10...17).trimmingSpaces
        let yearText = field(l1, 19...20)
        guard yearText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let yy = Int(yearText) else {
            throw fail(n1, "epoch year (columns 19–20) is \"\(yearText)\", not two digits")
        }
        let dayOfYear = try decimal(l1, n1, 21...32, "epoch day")
        let year = yy < 57 ? 2000 + yy : 1900 + yy
        let daysInYear = CivilDateTime.isLeapYear(year) ? 366 : 365
        guard dayOfYear >= 1, dayOfYear < Double(daysInYear + 1) else {
            throw fail(n1, "epoch day (columns 21–32) is \(dayOfYear); expected 1 ≤ day < \(daysInYear + 1) in \(year)")
        }
        let nDot = try decimal(l1, n1, 34...43, "first derivative of the mean motion")
        let nDDot = try exponential(l1, n1, 45...52, "second derivative of the mean motion")
        let bstar = try exponential(l1, n1, 54...61, "B* drag term")
        let setNumber = try integer(l1, n1, 65...68, "element set number")

        let inclination = try decimal(l2, n2, 9...16, "inclination")
        let raan = try decimal(l2, n2, 18...25, "right ascension of the ascending node")
        let eccText = field(l2, 27...33)
        guard eccText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == space }), let eccDigits = Int(eccText.trimmingSpaces) else {
            throw fail(n2, "eccentricity (columns 27–33) is \"\(eccText)\"; expected seven digits with an implied leading decimal point")
        }
        let argPerigee = try decimal(l2, n2, 35...42, "argument of perigee")
        let meanAnomaly = try decimal(l2, n2, 44...51, "mean anomaly")
        let meanMotion = try decimal(l2, n2, 53...63, "mean motion")
        let revolutions = try integer(l2, n2, 64...68, "revolution number")
        guard (0...180).contains(inclination) else { throw fail(n2, "inclination \(inclination)° is outside 0…180°") }
        guard (0...360).contains(raan) else { throw fail(n2, "right ascension of the node \(raan)° is outside 0…360°") }
        guard (0...360).contains(argPerigee) else { throw fail(n2, "argument of perigee \(argPerigee)° is outside 0…360°") }
        guard (0...360).contains(meanAnomaly) else { throw fail(n2, "mean anomaly \(meanAnomaly)° is outside 0…360°") }
        guard meanMotion > 0 else { throw fail(n2, "mean motion \(meanMotion) rev/day is not positive") }

        let epoch = ElementSet.epoch(twoDigitYear: yy, dayOfYear: dayOfYear)
        return ElementSet(
            name: name, noradID: number1, classification: classification, internationalDesignator: designator,
            epochJDWhole: epoch.whole, epochJDFraction: epoch.fraction,
            meanMotionDotRevPerDay2: nDot, meanMotionDDotRevPerDay3: nDDot, bstarPerEarthRadius: bstar,
            inclinationDeg: inclination, raanDeg: raan, eccentricity: Double(eccDigits) / 1e7,
            argumentOfPerigeeDeg: argPerigee, meanAnomalyDeg: meanAnomaly, meanMotionRevPerDay: meanMotion,
            elementSetNumber: setNumber, revolutionNumber: revolutions)
    }

    /// The TLE checksum of columns 1–68: the sum of the digits, each minus sign counting 1, mod 10.
    public static func checksum(_ columns: ArraySlice<UInt8>) -> Int {
        var sum = 0
        for c in columns {
            if c >= 0x30 && c <= 0x39 { sum += Int(c - 0x30) } else if c == UInt8(ascii: "-") { sum += 1 }
        }
        return sum % 10
    }

    /// Columns 3–7: five digits, or Alpha-5 (a letter for the two leading digits, A = 10 … Z = 33
    /// skipping I and O; Space-Track's scheme for numbers 100,000–339,999).
    static func catalogueNumber(_ line: [UInt8], line number: Int) throws(ElementSetError) -> Int {
        let columns = line[2...6]
        let text = String(decoding: columns, as: UTF8.self)
        let bad = ElementSetError(line: number, reason: "catalogue number (columns 3–7) is \"\(text)\"; expected five digits or Alpha-5")
        let digits = columns.dropFirst()
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == space }), let low = Int(String(decoding: digits, as: UTF8.self).trimmingSpaces) else { throw bad }
        let first = columns.first!
        if first >= 0x30 && first <= 0x39 { return Int(first - 0x30) * 10_000 + low }
        if first == space { return low }
        guard first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z"), first != UInt8(ascii: "I"), first != UInt8(ascii: "O") else { throw bad }
        var value = Int(first - UInt8(ascii: "A")) + 10
        if first > UInt8(ascii: "I") { value -= 1 }
        if first > UInt8(ascii: "O") { value -= 1 }
        return value * 10_000 + low
    }

    /// `" 12345-3"` → 0.12345e-3: a sign, digits with an implied leading decimal point, and a
    /// signed one-digit exponent.
    static func impliedDecimalExponent(_ text: String) -> Double? {
        let t = Array(text.trimmingSpaces.utf8)
        guard t.count >= 3 else { return nil }
        let expSign = t[t.count - 2], expDigit = t[t.count - 1]
        guard expSign == UInt8(ascii: "-") || expSign == UInt8(ascii: "+"), expDigit >= 0x30, expDigit <= 0x39 else { return nil }
        var mantissa = t[0..<(t.count - 2)]
        var sign = 1.0
        if let s = mantissa.first, s == UInt8(ascii: "-") || s == UInt8(ascii: "+") {
            sign = s == UInt8(ascii: "-") ? -1 : 1
            mantissa = mantissa.dropFirst()
        }
        guard !mantissa.isEmpty, mantissa.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let m = Double("0." + String(decoding: mantissa, as: UTF8.self) + "e" + String(decoding: [expSign, expDigit], as: UTF8.self))
        else { return nil }
        return sign * m
    }

    /// A plain decimal (`-.00000084`, `51.6416`, `15.50103472`): sign, digits, one point. No
    /// exponent, no `nan`, no `inf`.
    static func plainDecimal(_ text: String) -> Double? {
        var sawDigit = false, sawPoint = false
        for (i, c) in text.utf8.enumerated() {
            switch c {
            case 0x30...0x39: sawDigit = true
            case UInt8(ascii: "."): if sawPoint { return nil }; sawPoint = true
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if i != 0 { return nil }
            default: return nil
            }
        }
        guard sawDigit else { return nil }
        var t = text
        if t.hasPrefix("+") { t.removeFirst() }
        if t.hasPrefix(".") { t = "0" + t } else if t.hasPrefix("-.") { t = "-0" + t.dropFirst() }
        return Double(t)
    }

    static func trimmedTrailing(_ s: Substring) -> Substring {
        var end = s.endIndex
        while end > s.startIndex {
            let before = s.index(before: end)
            guard s[before] == " " || s[before] == "\r" || s[before] == "\t" else { break }
            end = before
        }
        return s[s.startIndex..<end]
    }
}

private let space = UInt8(ascii: " ")

extension StringProtocol {
    /// Without leading and trailing spaces (and tabs, carriage returns).
    var trimmingSpaces: String {
        let u = Array(utf8)
        var a = 0, b = u.count
        while a < b, u[a] == 0x20 || u[a] == 0x09 || u[a] == 0x0D { a += 1 }
        while b > a, u[b - 1] == 0x20 || u[b - 1] == 0x09 || u[b - 1] == 0x0D { b -= 1 }
        return String(decoding: u[a..<b], as: UTF8.self)
    }
}
