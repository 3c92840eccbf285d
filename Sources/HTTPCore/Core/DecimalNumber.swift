/// Strict decimal numbers for query values: `-12`, `0.5`, `.5`, `1e6`, `-2.5E-3`. Swift's
/// `Double(_:)` also takes `0x1p4`, `+5`, `nan` and `inf`; an API should not.
public enum DecimalNumber {
    /// A finite double written in plain decimal notation, or nil.
    public static func double(_ text: String) -> Double? {
        var digitsBefore = 0, digitsAfter = 0, exponentDigits = 0
        var state = 0 // 0 sign/int, 1 fraction, 2 exponent sign, 3 exponent digits
        var i = text.utf8.startIndex
        let u = text.utf8
        if i < u.endIndex, u[i] == UInt8(ascii: "-") { i = u.index(after: i) }
        while i < u.endIndex {
            let c = u[i]
            switch (state, c) {
            case (0, UInt8(ascii: "0")...UInt8(ascii: "9")): digitsBefore += 1
            case (0, UInt8(ascii: ".")): state = 1
            case (1, UInt8(ascii: "0")...UInt8(ascii: "9")): digitsAfter += 1
            case (0, UInt8(ascii: "e")), (0, UInt8(ascii: "E")), (1, UInt8(ascii: "e")), (1, UInt8(ascii: "E")): state = 2
            case (2, UInt8(ascii: "+")), (2, UInt8(ascii: "-")): state = 3
            case (2, UInt8(ascii: "0")...UInt8(ascii: "9")), (3, UInt8(ascii: "0")...UInt8(ascii: "9")): state = 3; exponentDigits += 1
            default: return nil
            }
            i = u.index(after: i)
        }
        guard digitsBefore + digitsAfter > 0, state < 2 || exponentDigits > 0, text.utf8.count <= 64 else { return nil }
        guard let v = Double(text), v.isFinite else { return nil }
        return v
    }

    /// An integer written as optional `-` and 1…18 decimal digits, or nil.
    public static func int(_ text: String) -> Int? {
        var body = Substring(text)
        if body.first == "-" { body = body.dropFirst() }
        guard (1...18).contains(body.utf8.count), body.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }
}
