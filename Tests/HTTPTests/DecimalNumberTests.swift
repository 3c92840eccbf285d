@testable import HTTPCore
import Testing

@Suite("DecimalNumber")
struct DecimalNumberTests {
    @Test("plain decimal notation only", arguments: [
        ("0", 0.0), ("-12", -12), ("0.5", 0.5), (".5", 0.5), ("5.", 5), ("1e6", 1e6), ("-2.5E-3", -0.0025), ("2e+8", 2e8),
    ])
    func accepted(text: String, value: Double) {
        #expect(DecimalNumber.double(text) == value)
    }

    @Test("hex, signs, words, blanks and overflow are refused", arguments: [
        "0x10", "0x1p4", "+5", "nan", "inf", "-inf", "", "-", ".", "1e", "1e+", "1.2.3", " 1", "1 ", "1e400", "--1", "e5",
    ])
    func refused(text: String) {
        #expect(DecimalNumber.double(text) == nil)
    }

    @Test("integers: optional minus and up to 18 digits")
    func integers() {
        #expect(DecimalNumber.int("42") == 42 && DecimalNumber.int("-7") == -7 && DecimalNumber.int("007") == 7)
        for bad in ["+5", "0x10", "1.0", "", "-", "1e3", "1234567890123456789", " 3"] { #expect(DecimalNumber.int(bad) == nil, "\(bad)") }
    }
}
