import Foundation

/// JPL's Small-Body Database API answers (`sbdb.api?sstr=…&full-prec=1`, with or without
/// `phys-par`, `ca-data`): `object` (designation, full name, kind, orbit class), `orbit` (epoch,
/// the elements e, q, i, om, w, tp, ma; `model_pars` A1, A2, A3, DT and the g(r) constants ALN,
/// R0, NM, NN, NK), `phys_par` (H, G; M1, K1). One answer, or an array of them. Numbers come as
/// strings, all digits kept.
enum SBDBReader {
    static func read(_ bytes: [UInt8], into parser: inout ElementFileParser) throws(ElementFileError) {
        let top: Any
        do { top = try JSONSerialization.jsonObject(with: Data(bytes)) } catch {
            throw ElementFileError(reason: "not JSON: \(error.localizedDescription)")
        }
        let records: [Any] = (top as? [Any]) ?? [top]
        var any = false
        for (k, raw) in records.enumerated() {
            guard let object = raw as? [String: Any] else {
                parser.report(ElementFileError(record: k + 1, reason: "not a JSON object"))
                continue
            }
            any = any || object["orbit"] != nil
            do {
                parser.add(try body(object), record: k + 1)
            } catch {
                parser.report(ElementFileError(record: k + 1, body: error.body, reason: error.reason))
            }
        }
        if !any, records.count > 0, parser.file.count == 0 {
            throw ElementFileError(reason: "no record has an \"orbit\": not an SBDB answer (\(parser.file.problems.first?.reason ?? "empty"))")
        }
    }

    static func number(_ value: Any?) -> Double? {
        if let s = value as? String { return Double(s.trimmingCharacters(in: " ")) }
        if let n = value as? NSNumber { return n.doubleValue }
        return nil
    }

    static func body(_ d: [String: Any]) throws(MPCLines.LineError) -> SmallBody {
        if let message = d["message"] as? String { throw MPCLines.LineError(reason: "an SBDB error answer: \(message)") }
        guard let object = d["object"] as? [String: Any], let orbit = d["orbit"] as? [String: Any] else {
            throw MPCLines.LineError(reason: "no \"object\" and \"orbit\": not an SBDB answer")
        }
        let des = (object["des"] as? String) ?? ""
        let fullname = (object["fullname"] as? String) ?? des
        let kindCode = (object["kind"] as? String) ?? "a"
        let isComet = kindCode.hasPrefix("c")
        var values: [String: Double] = [:]
        for e in (orbit["elements"] as? [[String: Any]]) ?? [] {
            if let name = e["name"] as? String, let v = number(e["value"]) { values[name] = v }
        }
        guard let epoch = number(orbit["epoch"]) else { throw MPCLines.LineError(body: des, reason: "orbit.epoch is missing or not a number") }
        guard let e = values["e"], let inc = values["i"], let node = values["om"], let peri = values["w"] else {
            throw MPCLines.LineError(body: des, reason: "orbit.elements lacks e, i, om or w")
        }
        let q = values["q"] ?? values["a"].map { $0 * (1 - e) }
        guard let q, q > 0, e >= 0, (0...180).contains(inc) else { throw MPCLines.LineError(body: des, reason: "orbit.elements lacks q (or a), or is out of range") }
        let ma = values["ma"]
        var tp = values["tp"]
        if tp == nil, let ma, e < 1 {
            let a = q / (1 - e)
            let nDeg = (OrbitalElements.sunGM / pow(a * 149_597_870.7, 3)).squareRoot() * 86_400 * 180 / .pi
            tp = epoch - ma / nDeg
        }
        guard let tp else { throw MPCLines.LineError(body: des, reason: "orbit.elements lacks tp (and ma)") }
        let elements = OrbitalElements(epochJDTDB: epoch, perihelionAU: q, eccentricity: e, inclinationDeg: inc, ascendingNodeDeg: node,
                                       argumentOfPerihelionDeg: peri, perihelionJDTDB: tp, meanAnomalyDeg: e < 1 ? ma : nil)
        guard elements.isValid else { throw MPCLines.LineError(body: des, reason: "elements out of range") }

        var pars: [String: Double] = [:]
        for p in (orbit["model_pars"] as? [[String: Any]]) ?? [] {
            if let name = p["name"] as? String, let v = number(p["value"]) { pars[name.uppercased()] = v }
        }
        var nonGrav: NonGravitationalParameters?
        if pars["A1"] != nil || pars["A2"] != nil || pars["A3"] != nil {
            var law = isComet ? SmallBodyConstants.standardSublimation : SmallBodyConstants.inverseSquare
            if let v = pars["ALN"] { law.alpha = v }
            if let v = pars["R0"] { law.r0AU = v }
            if let v = pars["NM"] { law.m = v }
            if let v = pars["NN"] { law.n = v }
            if let v = pars["NK"] { law.k = v }
            nonGrav = NonGravitationalParameters(a1: pars["A1"] ?? 0, a2: pars["A2"] ?? 0, a3: pars["A3"] ?? 0, dtDays: pars["DT"] ?? 0, law: law)
        }

        var phys: [String: Double] = [:]
        var physText: [String: String] = [:]
        for p in (d["phys_par"] as? [[String: Any]]) ?? [] {
            guard let name = p["name"] as? String else { continue }
            if let v = number(p["value"]) { phys[name] = v }
            if let t = p["value"] as? String { physText[name] = t }
        }
        let brightness: SmallBody.Brightness?
        if isComet {
            brightness = phys["M1"].map { .comet(m1: $0, k1: phys["K1"] ?? 10) }
        } else {
            brightness = phys["H"].map { .asteroid(h: $0, g: phys["G"] ?? 0.15) }
        }
        let names = identity(des: des, fullname: fullname, isComet: isComet)
        var orbitClass: OrbitClass?
        if let c = object["orbit_class"] as? [String: Any], let code = c["code"] as? String, let name = c["name"] as? String {
            orbitClass = OrbitClass(code: code, name: name)
        }
        var solution = (orbit["orbit_id"] as? String).map { "JPL \($0)" }
        if let date = orbit["soln_date"] as? String { solution = (solution ?? "JPL") + " (\(date))" }
        return SmallBody(number: names.number, designation: names.designation, name: names.name, kind: isComet ? .comet : .asteroid,
                         elements: elements, nonGravitational: nonGrav, brightness: brightness, orbitClass: orbitClass, solution: solution,
                         physical: physical(phys, physText), source: SmallBody.Source(file: "", format: .sbdbJSON, line: 0))
    }

    /// The `phys_par` entries the server uses: `extent` ("964.4 x 964.2 x 891.8" km) or
    /// `diameter` for the radii, `GM`, `pole` ("291.421/66.758"), `rot_per`, `albedo`, `BV`.
    static func physical(_ values: [String: Double], _ texts: [String: String]) -> PhysicalParameters? {
        var p = PhysicalParameters()
        let finite: (Double?) -> Double? = { v in v.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }
        if let extent = texts["extent"] {
            let axes = extent.split(separator: "x").compactMap { Double(String($0).trimmingCharacters(in: " ")) }.filter { $0.isFinite && $0 > 0 }
            if axes.count == 3 { p.equatorialRadiusKm = axes.max()! / 2; p.polarRadiusKm = axes.min()! / 2 }
        }
        p.diameterKm = finite(values["diameter"])
        if p.equatorialRadiusKm == nil, let d = p.diameterKm { p.equatorialRadiusKm = d / 2; p.polarRadiusKm = d / 2 }
        p.gm = finite(values["GM"])
        if let pole = texts["pole"] {
            let parts = pole.split(separator: "/").compactMap { Double(String($0).trimmingCharacters(in: " ")) }
            if parts.count == 2, (0...360).contains(parts[0]), (-90...90).contains(parts[1]) { (p.poleRADeg, p.poleDecDeg) = (parts[0], parts[1]) }
        }
        p.rotationPeriodHours = finite(values["rot_per"])
        p.albedo = finite(values["albedo"])
        p.bv = values["BV"].flatMap { $0.isFinite ? $0 : nil }
        return p == PhysicalParameters() ? nil : p
    }

    /// `99942 Apophis (2004 MN4)` → 99942, Apophis, 2004 MN4; `1 Ceres` → 1, Ceres, "1";
    /// `67P/Churyumov-Gerasimenko` → 67P, Churyumov-Gerasimenko; `C/1995 O1 (Hale-Bopp)`.
    static func identity(des: String, fullname: String, isComet: Bool) -> (number: Int?, designation: String, name: String?) {
        let full = fullname.trimmingCharacters(in: " ")
        var inner: String?
        var head = full
        if let open = full.firstIndex(of: "("), let close = full.lastIndex(of: ")"), open < close {
            inner = String(full[full.index(after: open)..<close])
            head = String(full[..<open]).trimmingCharacters(in: " ")
        }
        if isComet {
            if let slash = head.firstIndex(of: "/"), head.first?.isNumber == true {
                return (nil, String(head[..<slash]), String(head[head.index(after: slash)...]))
            }
            return (nil, des.isEmpty ? head : des, inner)
        }
        let parts = head.split(separator: " ", maxSplits: 1)
        if let first = parts.first, let n = Int(first), String(n) == des {
            let name = parts.count > 1 ? String(parts[1]) : nil
            let isProvisionalName = name.map { MPCLines.isProvisionalText($0) } ?? false
            return (n, inner ?? (isProvisionalName ? name! : des), isProvisionalName ? nil : name)
        }
        return (nil, des.isEmpty ? head : des, nil)
    }
}

extension MPCLines {
    static func isProvisionalText(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        return bytes.withUnsafeBufferPointer { looksProvisional($0[...]) }
    }
}
