import Foundation
import Testing
@testable import SolarSystemAPI

/// `JSONWriter.fixed`: at most `decimals` places, trailing zeros and a bare point dropped, as
/// `%.*f` prints the value rounded to those places.
@Suite("JSONWriter: fixed-point numbers")
struct JSONWriterTests {
    static func fixed(_ v: Double, _ decimals: Int) -> String {
        var w = JSONWriter()
        w.fixed(v, decimals: decimals)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// `%.*f`, then trailing zeros and a bare point taken off, and "-0" written "0".
    static func reference(_ v: Double, _ decimals: Int) -> String {
        var s = String(format: "%.*f", decimals, v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    @Test("the type's documentation example, run as written; ShortestDouble's too")
    func documentationExamples() {
        var w = JSONWriter()
        w.object { w in w.key("id"); w.string("earth"); w.key("position"); w.numbers([1, 2, 3]) }
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"id":"earth","position":[1,2,3]}"#)
        var out: [UInt8] = []
        ShortestDouble.append(0.1 + 0.2, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "0.30000000000000004")
    }

    @Test("zeros padded inside the fraction, none trailing; signs; whole numbers; rounding")
    func examples() {
        #expect(Self.fixed(0, 3) == "0")
        #expect(Self.fixed(0.05, 3) == "0.05")
        #expect(Self.fixed(0.000296, 6) == "0.000296")
        #expect(Self.fixed(0.0000004, 6) == "0")
        #expect(Self.fixed(-0.0004, 3) == "0")
        #expect(Self.fixed(-1.5, 3) == "-1.5")
        #expect(Self.fixed(1234.0, 3) == "1234")
        #expect(Self.fixed(3049.589, 3) == "3049.589")
        #expect(Self.fixed(-195.309_722, 6) == "-195.309722")
        #expect(Self.fixed(18_446_744.073_709_5, 0) == "18446744")
        #expect(Self.fixed(1e300, 3) == 1e300.description)
    }

    @Test("20,000 seeded random values against %.*f (ties left out: the two round them differently)")
    func randomValues() {
        // Seeded (Marsaglia's xorshift64), so a failure replays.
        var state: UInt64 = 0x5EED_F1ED
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var checked = 0
        for _ in 0..<20_000 {
            let decimals = Int(next() % 7)
            let magnitude = pow(10, Double(next() % 13) - 6)
            let v = (Double(next() >> 11) / Double(1 << 53) * 2 - 1) * magnitude
            let scaled = v * pow(10, Double(decimals))
            if abs(abs(scaled - scaled.rounded(.down)) - 0.5) < 1e-6 { continue }
            #expect(Self.fixed(v, decimals) == Self.reference(v, decimals), "\(v) to \(decimals) places")
            checked += 1
        }
        #expect(checked > 19_900)
    }
}
