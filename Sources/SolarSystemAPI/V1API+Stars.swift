import Ephemeris
import HTTP
import Scene

extension V1API {
    /// Radius of the sphere the stars are drawn on (the seeds' starfield).
    public static let starSphereRadius = 500.0

    /// `GET /v1/stars`: the catalogue at scene positions on the radius-500 sphere, brightest first
    /// within the magnitude cut.
    /// Each distinct query is encoded once and kept (the catalogue never changes while the
    /// process runs); JSON or CSV by `format` or `Accept`, so caches key on Accept too.
    func starsPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["maxMagnitude", "format", "named"])
        let maxMagnitude = try q.double("maxMagnitude", in: -2...6.5, default: 6.5)
        let namedOnly = try q.bool("named", default: false)
        let csv = try wantsCSV(req)
        // The whole catalogue is ~1.5 MB to encode and compress (once): the heavy lane.
        return encodedPlan(
            .stars(maxMagnitude: maxMagnitude, named: namedOnly, csv: csv), freshness: .catalogue,
            contentType: csv ? Self.csvContentType : HTTPResponse.jsonContentType,
            cost: maxMagnitude > 4.5 ? .heavy : .compute, finish: { $0.varying(on: "Accept") }
        ) { [self] in
            starsBody(maxMagnitude: maxMagnitude, namedOnly: namedOnly, csv: csv)
        }
    }

    func starsBody(maxMagnitude: Double, namedOnly: Bool, csv: Bool) -> [UInt8] {
        let selected = services.starsByMagnitude.filter { $0.magnitude <= maxMagnitude && (!namedOnly || $0.name != nil) }
        let r = Self.starSphereRadius
        if csv {
            var out = "name,ra_hours,dec_deg,magnitude,color_index,x,y,z,r,g,b,tier,point_size\n"
            out.reserveCapacity(selected.count * 120)
            for s in selected {
                let p = SceneAxes.scene(fromEcliptic: s.directionEcliptic) * r
                let name = s.name.map(csvField) ?? ""
                out += "\(name),\(s.rightAscensionHours),\(s.declinationDeg),\(s.magnitude),\(s.colorIndex.map { "\($0)" } ?? ""),"
                out += "\(round3(p.x)),\(round3(p.y)),\(round3(p.z)),\(s.colorRGB[0]),\(s.colorRGB[1]),\(s.colorRGB[2]),\(s.tier),\(round3(s.pointSize))\n"
            }
            return Array(out.utf8)
        }
        var w = JSONWriter(capacity: selected.count * 170 + 512)
        w.object { w in
            w.key("count"); w.int(selected.count)
            w.key("maxMagnitude"); w.number(maxMagnitude)
            w.key("frame"); w.string("scene")
            w.key("radius"); w.number(r)
            w.key("source"); w.string("Yale Bright Star Catalogue, 5th ed. (Hoffleit & Warren 1991), J2000 positions")
            w.key("tiers"); w.string("0: V < 1.5 (3-8 px), 1: 1.5-3.5 (2-5 px), 2: 3.5-5.0 (1.5-3 px), 3: 5.0-6.5 (0.8-2 px)")
            w.key("stars")
            w.array { w in
                for s in selected {
                    let p = SceneAxes.scene(fromEcliptic: s.directionEcliptic) * r
                    w.object { w in
                        w.key("name"); w.optionalString(s.name)
                        w.key("raHours"); w.number(s.rightAscensionHours)
                        w.key("decDeg"); w.number(s.declinationDeg)
                        w.key("magnitude"); w.number(s.magnitude)
                        w.key("colorIndex")
                        if let ci = s.colorIndex { w.number(ci) } else { w.null() }
                        w.key("position"); w.numbers([round3(p.x), round3(p.y), round3(p.z)])
                        w.key("colorRgb"); w.numbers(s.colorRGB)
                        w.key("tier"); w.int(s.tier)
                        w.key("pointSize"); w.number(round3(s.pointSize))
                    }
                }
            }
        }
        return w.bytes
    }
}

/// Three decimals: a thousandth of a scene unit on the radius-500 sphere is 0.4″.
@inline(__always) func round3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }

/// A CSV field, quoted when it holds a comma, quote or newline (RFC 4180).
func csvField(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
    return "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
}
