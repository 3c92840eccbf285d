import Ephemeris
import HTTPCore
import Scene
import Sky

extension V1API {
    /// Radius of the sphere the stars are drawn on (the viewer's starfield).
    public static let starSphereRadius = 500.0

    /// `GET /v1/stars`: the catalogue at scene positions on the radius-500 sphere, brightest first
    /// within the magnitude cut.
    /// Each distinct query is encoded once and kept (the catalogue never changes while the
    /// process runs); JSON or CSV by `format` or `Accept`, so caches key on Accept too.
    func starsPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(SkyQuery.observerParameters.union(SkyQuery.atmosphereParameters).union(["maxMagnitude", "format", "named", "date"]))
        let maxMagnitude = try q.double("maxMagnitude", in: -2...6.5, default: 6.5)
        let namedOnly = try q.bool("named", default: false)
        let csv = try wantsCSV(req)
        // With a place (`lat` or `lon` asks for one; both are then required): each star's
        // azimuth and altitude there at `date` (default now). Without one the place's other
        // parameters are only validated.
        if q.contains("lat") || q.contains("lon") {
            let observer = try SkyQuery.observer(q)
            let atmosphere = try SkyQuery.atmosphere(q)
            let (t, freshness) = try q.instant("date", clock: services.clock)
            let key = SkyKey(route: "stars", instants: [t], observer: observer, atmosphere: atmosphere, bodies: [], detail: "\(maxMagnitude),\(namedOnly)", csv: csv)
            return encodedPlan(.sky(key), freshness: freshness, contentType: csv ? "text/csv; charset=utf-8" : HTTPResponse.jsonContentType,
                               cost: maxMagnitude > 4.5 ? .heavy : .compute, finish: { $0.varying(on: "Accept") }) { [self] in
                let time = services.sky.time(t)
                let selected = services.starsByMagnitude.filter { $0.magnitude <= maxMagnitude && (!namedOnly || $0.name != nil) }
                let horizontal = services.sky.horizontal(stars: selected.map(\.directionEquatorial), from: observer, at: time, atmosphere: atmosphere)
                return starsBody(maxMagnitude: maxMagnitude, namedOnly: namedOnly, csv: csv, horizontal: horizontal, time: time, observer: observer)
            }
        }
        _ = try q.instant("date", clock: services.clock)
        _ = try q.double("elevation", in: Observer.elevationRange)
        _ = try SkyQuery.atmosphere(q)
        // The whole catalogue is ~1.5 MB to encode and compress (once): the heavy lane.
        return encodedPlan(
            .stars(maxMagnitude: maxMagnitude, named: namedOnly, csv: csv), freshness: .catalogue,
            contentType: csv ? Self.csvContentType : HTTPResponse.jsonContentType,
            cost: maxMagnitude > 4.5 ? .heavy : .compute, finish: { $0.varying(on: "Accept") }
        ) { [self] in
            starsBody(maxMagnitude: maxMagnitude, namedOnly: namedOnly, csv: csv)
        }
    }

    /// The selected stars; with `horizontal` (one per star, from an observer) their azimuth and
    /// altitude too.
    func starsBody(maxMagnitude: Double, namedOnly: Bool, csv: Bool, horizontal: [(azimuthDeg: Double, altitudeDeg: Double)]? = nil,
                   time: SkyTime? = nil, observer: Observer? = nil) -> [UInt8] {
        let selected = services.starsByMagnitude.filter { $0.magnitude <= maxMagnitude && (!namedOnly || $0.name != nil) }
        let r = Self.starSphereRadius
        if csv {
            var out = "name,ra_hours,dec_deg,magnitude,color_index,x,y,z,r,g,b,tier,point_size" + (horizontal == nil ? "\n" : ",azimuth_deg,altitude_deg\n")
            out.reserveCapacity(selected.count * 140)
            for (k, s) in selected.enumerated() {
                let p = SceneAxes.scene(fromEcliptic: s.directionEcliptic) * r
                let name = s.name.map(csvField) ?? ""
                out += "\(name),\(s.rightAscensionHours),\(s.declinationDeg),\(s.magnitude),\(s.colorIndex.map { "\($0)" } ?? ""),"
                out += "\(round3(p.x)),\(round3(p.y)),\(round3(p.z)),\(s.colorRGB[0]),\(s.colorRGB[1]),\(s.colorRGB[2]),\(s.tier),\(round3(s.pointSize))"
                if let h = horizontal?[k] { out += ",\(SkyEncoding.round6(h.azimuthDeg)),\(SkyEncoding.round6(h.altitudeDeg))" }
                out += "\n"
            }
            return Array(out.utf8)
        }
        var w = JSONWriter(capacity: selected.count * 210 + 512)
        w.object { w in
            if let time, let observer {
                SkyEncoding.writeTime(time, into: &w)
                SkyEncoding.writeSetting(observer, nil, model: nil, into: &w)
            }
            w.key("count"); w.int(selected.count)
            w.key("maxMagnitude"); w.number(maxMagnitude)
            w.key("frame"); w.string("scene")
            w.key("radius"); w.number(r)
            w.key("source"); w.string("Yale Bright Star Catalogue, 5th ed. (Hoffleit & Warren 1991), J2000 positions")
            w.key("tiers"); w.string("0: V < 1.5 (3-8 px), 1: 1.5-3.5 (2-5 px), 2: 3.5-5.0 (1.5-3 px), 3: 5.0-6.5 (0.8-2 px)")
            w.key("stars")
            w.array { w in
                for (k, s) in selected.enumerated() {
                    let p = SceneAxes.scene(fromEcliptic: s.directionEcliptic) * r
                    w.object { w in
                        if let h = horizontal?[k] {
                            w.key("azimuthDeg"); w.number(SkyEncoding.round6(h.azimuthDeg))
                            w.key("altitudeDeg"); w.number(SkyEncoding.round6(h.altitudeDeg))
                        }
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
