import Ephemeris

/// The Minor Planet Center's one-line formats: `MPCORB.DAT` (asteroids: "Export Format for
/// Minor-Planet Orbits") and `CometEls.txt` (comets: "Export Format for Comet Orbits"), by
/// their columns (1-based, inclusive, as the MPC numbers them).
enum MPCLines {
    struct Record {
        var body: CompactBody
        var number: Int32
        var designation: [UInt8]
        var name: [UInt8]
    }

    struct LineError: Error {
        var body: String?
        var reason: String
    }

    /// An MPCORB line: packed designation (1–7), H (9–13), G (15–19), packed epoch (21–25), M
    /// (27–35), ω (38–46), Ω (49–57), i (60–68), e (71–79), n (81–91, °/day), a (93–103, AU),
    /// and the readable designation (167–194: `(1) Ceres`, `(99942) Apophis`, `2024 YR4`).
    static func asteroid(_ line: UnsafeBufferPointer<UInt8>) -> Result<Record, LineError> {
        guard line.count >= 103 else { return .failure(LineError(reason: "\(line.count) columns: an MPCORB record has at least 103")) }
        let f = FixedColumns(line: line)
        let packedField = f.field(1, 7)
        let packed = String(decoding: packedField, as: UTF8.self).trimmingCharacters(in: " ")
        guard let id = PackedDesignation.unpack(packedField) else {
            return .failure(LineError(body: packed, reason: "columns 1–7 (\(packed)) are not a packed MPC designation"))
        }
        guard let date = PackedDesignation.date(f.field(21, 25)) else {
            return .failure(LineError(body: packed, reason: "columns 21–25 (\(f.text(21, 25))) are not a packed epoch"))
        }
        guard let m = f.double(27, 35), let peri = f.double(38, 46), let node = f.double(49, 57), let inc = f.double(60, 68),
              let e = f.double(71, 79), let n = f.double(81, 91), let a = f.double(93, 103) else {
            return .failure(LineError(body: packed, reason: "an element in columns 27–103 is blank or not a number"))
        }
        guard e >= 0, e < 1, a > 0, n > 0, (0...180).contains(inc), m.isFinite, peri.isFinite, node.isFinite else {
            return .failure(LineError(body: packed, reason: "elements out of range (e \(e), a \(a) AU, i \(inc)°, n \(n)°/d)"))
        }
        let h = f.isBlank(9, 13) ? nil : f.double(9, 13)
        let g = f.isBlank(15, 19) ? nil : f.double(15, 19)
        let epoch = CivilDateTime.julianDayNumberAtMidnight(year: date.year, month: date.month, day: date.day)
        var number: Int32 = 0
        var designation: [UInt8]
        var name: [UInt8] = []
        switch id {
        case .number(let k):
            guard k <= Int(Int32.max) else { return .failure(LineError(body: packed, reason: "number \(k) too large")) }
            number = Int32(k)
            designation = Array(String(k).utf8)
        case .provisional(let d):
            designation = Array(d.utf8)
        }
        // The readable designation: "(N) Name", "(N) 2004 MN4" (numbered, unnamed) or "2004 MN4".
        if line.count >= 167 {
            let readable = f.field(167, min(194, line.count))
            var s = readable[...]
            while let x = s.first, x == UInt8(ascii: " ") { s = s.dropFirst() }
            while let x = s.last, x == UInt8(ascii: " ") { s = s.dropLast() }
            if s.first == UInt8(ascii: "("), let close = s.firstIndex(of: UInt8(ascii: ")")) {
                var rest = s[(close + 1)...]
                while let x = rest.first, x == UInt8(ascii: " ") { rest = rest.dropFirst() }
                if looksProvisional(rest) { designation = Array(rest) } else { name = Array(rest) }
            }
        }
        let body = CompactBody(epoch: epoch, q: a * (1 - e), e: e, i: inc, node: node, peri: peri, tp: epoch - m / n, m: m,
                               magnitude: h.map(Float.init) ?? .nan, slope: g.map(Float.init) ?? .nan, number: number,
                               textOffset: 0, designationLength: 0, nameLength: 0, isComet: false, line: 0, extras: -1)
        return .success(Record(body: body, number: number, designation: designation, name: name))
    }

    /// `2004 MN4`, `1999 AX17`, `2040 P-L`: four digits and a space first.
    static func looksProvisional(_ s: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard s.count >= 6 else { return false }
        let i = s.startIndex
        return (0..<4).allSatisfy { PackedDesignation.decimal(s[i + $0]) != nil } && s[i + 4] == UInt8(ascii: " ")
    }

    /// A comet line: number (1–4), orbit type (5: C, P, D, X, I, A), packed provisional
    /// designation (6–12), perihelion time (15–29: year, month, day.dddd TT), q (31–39), e
    /// (42–49), ω (52–59), Ω (62–69), i (72–79), epoch (82–89, yyyymmdd; blank: the perihelion
    /// time), M1 (92–95), the brightness slope (97–100: the exponent n of r^−n, so K1 = 2.5 n),
    /// designation and name (103–158).
    static func comet(_ line: UnsafeBufferPointer<UInt8>) -> Result<Record, LineError> {
        guard line.count >= 79 else { return .failure(LineError(reason: "\(line.count) columns: an MPC comet record has at least 79")) }
        let f = FixedColumns(line: line)
        let type = line[4]
        let label = f.text(1, 12)
        guard [UInt8(ascii: "C"), UInt8(ascii: "P"), UInt8(ascii: "D"), UInt8(ascii: "X"), UInt8(ascii: "I"), UInt8(ascii: "A")].contains(type) else {
            return .failure(LineError(body: label, reason: "column 5 is not a comet orbit type (C, P, D, X, I or A)"))
        }
        let numberField = f.field(1, 4)
        var number = 0
        if !f.isBlank(1, 4) {
            guard let n = f.double(1, 4), n > 0, n == n.rounded(), !numberField.contains(UInt8(ascii: ".")) else {
                return .failure(LineError(body: label, reason: "columns 1–4 (\(f.text(1, 4))) are not a periodic comet number"))
            }
            number = Int(n)
        }
        var provisional: String?
        if !f.isBlank(6, 12) {
            guard case let .provisional(d)? = PackedDesignation.unpack(f.field(6, 12), comet: true) else {
                return .failure(LineError(body: label, reason: "columns 6–12 (\(f.text(6, 12))) are not a packed comet designation"))
            }
            provisional = d
        }
        guard number > 0 || provisional != nil else { return .failure(LineError(body: label, reason: "neither a number nor a designation")) }
        guard let year = f.double(15, 18), let month = f.double(20, 21), let day = f.double(23, 29),
              (1...12).contains(month), day >= 0, day < 33,
              let q = f.double(31, 39), let e = f.double(42, 49), let peri = f.double(52, 59), let node = f.double(62, 69), let inc = f.double(72, 79)
        else { return .failure(LineError(body: label, reason: "the perihelion time or an element in columns 15–79 is blank or not a number")) }
        guard q > 0, e >= 0, e < 100, (0...180).contains(inc) else {
            return .failure(LineError(body: label, reason: "elements out of range (q \(q) AU, e \(e), i \(inc)°)"))
        }
        let tp = CivilDateTime.julianDayNumberAtMidnight(year: Int(year), month: Int(month), day: 1) + day - 1
        var epoch = tp
        if line.count >= 89, !f.isBlank(82, 89) {
            guard let y = f.double(82, 85), let mo = f.double(86, 87), let d = f.double(88, 89), (1...12).contains(mo), (1...31).contains(d) else {
                return .failure(LineError(body: label, reason: "columns 82–89 (\(f.text(82, 89))) are not an epoch yyyymmdd"))
            }
            epoch = CivilDateTime.julianDayNumberAtMidnight(year: Int(y), month: Int(mo), day: Int(d))
        }
        let m1 = line.count >= 95 ? f.double(92, 95) : nil
        let slope = line.count >= 100 ? f.double(97, 100) : nil
        let typeLetter = String(Character(Unicode.Scalar(type)))
        let designation = number > 0 ? "\(number)\(typeLetter)" : "\(typeLetter)/\(provisional ?? "")"
        // "C/1995 O1 (Hale-Bopp)" or "1P/Halley": the name in parentheses, or after the slash.
        var name = ""
        if line.count >= 103 {
            let full = f.text(103, min(158, line.count))
            if let open = full.firstIndex(of: "("), let close = full.lastIndex(of: ")"), open < close {
                name = String(full[full.index(after: open)..<close])
            } else if number > 0, let slash = full.firstIndex(of: "/") {
                name = String(full[full.index(after: slash)...])
            }
        }
        let body = CompactBody(epoch: epoch, q: q, e: e, i: inc, node: node, peri: peri, tp: tp, m: .nan,
                               magnitude: m1.map(Float.init) ?? .nan, slope: slope.map { Float($0 * 2.5) } ?? .nan, number: 0,
                               textOffset: 0, designationLength: 0, nameLength: 0, isComet: true, line: 0, extras: -1)
        return .success(Record(body: body, number: 0, designation: Array(designation.utf8), name: Array(name.utf8)))
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
