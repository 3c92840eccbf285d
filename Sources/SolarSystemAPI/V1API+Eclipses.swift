import Ephemeris
import HTTPCore
import Rendering
import Sky

extension LiveAPI {
    func registerEclipses(on router: Router) {
        router.plan(.get, "/v1/eclipses", cost: .compute) { req, _ in try self.current.api.eclipsesPlan(req) }
        router.plan(.get, "/v1/eclipses/local", cost: .compute) { req, _ in try self.current.api.localEclipsesPlan(req) }
        router.plan(.get, "/v1/eclipses/{id}", cost: .compute) { req, ctx in try self.current.api.eclipsePlan(req, ctx) }
        router.plan(.get, "/v1/eclipses/{id}/path", cost: .compute) { req, ctx in try self.current.api.eclipsePathPlan(req, ctx) }
        router.plan(.get, "/v1/transits", cost: .compute) { req, _ in try self.current.api.transitsPlan(req) }
        router.plan(.get, "/v1/views/eclipse.svg", cost: .heavy) { req, _ in try self.current.api.eclipseViewPlan(req, png: false) }
        router.plan(.get, "/v1/views/eclipse.png", cost: .heavy) { req, _ in try self.current.api.eclipseViewPlan(req, png: true) }
    }
}

extension V1API {
    /// Eclipses a list gives when no `stop` is asked for.
    static let defaultEclipseCount = 10

    static let eclipseKindAccepted = "solar or lunar (default both)"

    /// `GET /v1/eclipses?kind=&start=&stop=`: the solar and (or) lunar eclipses of the span (at
    /// most 1,000 years); without `stop`, the next 10 from `start`.
    func eclipsesPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(EclipseQuery.conventionParameters.union(["kind", "start", "stop", "format"]))
        let kind = try q.oneOf("kind", ["solar", "lunar"])
        let conventions = try EclipseQuery.conventions(q)
        // Ten eclipses of one kind take at most about 5 years.
        let span = try EclipseQuery.span(q, clock: services.clock, defaultYears: 6)
        let csv = try wantsCSV(req)
        let sky = services.sky
        let detail = "\(kind ?? "both");\(span.stopGiven);\(EclipseQuery.key(conventions))"
        let key = ResponseKey.eclipses(EclipseKey(route: "eclipses", instants: [span.start, span.stop], observer: nil, detail: detail, csv: csv))
        let heavy = span.stop.seconds(since: span.start) > 200 * 365.25 * 86_400
        return encodedPlan(key, freshness: span.freshness, contentType: csv ? Self.csvContentType : HTTPResponse.jsonContentType,
                           cost: heavy ? .heavy : nil, finish: { $0.varying(on: "Accept") }) {
            let solar = kind == "lunar" ? [] : sky.solarEclipses(start: span.start, stop: span.stop, conventions: conventions)
            let lunar = kind == "solar" ? [] : sky.lunarEclipses(start: span.start, stop: span.stop, conventions: conventions)
            var items = (solar.map { EclipseItem.solar($0) } + lunar.map { EclipseItem.lunar($0) }).sorted { $0.greatest < $1.greatest }
            if !span.stopGiven { items = Array(items.prefix(Self.defaultEclipseCount)) }
            if csv { return Array((EclipseEncoding.csvHeader + items.map(\.csv).joined()).utf8) }
            var w = JSONWriter(capacity: 1024 + items.count * 700)
            w.object { w in
                w.key("start"); w.string(span.start.iso8601)
                w.key("stop"); w.string(span.stop.iso8601)
                w.key("count"); w.int(items.count)
                EclipseEncoding.conventions(conventions, into: &w)
                w.key("eclipses"); w.array { w in for i in items { w.object { w in i.write(into: &w) } } }
            }
            return w.bytes
        }
    }

    /// The 404 for an id that is not of the eclipse ids' form (it names no date).
    static func notAnEclipseID(_ id: String) -> ProblemDetails {
        ProblemDetails(status: .notFound, title: "Unknown eclipse", detail: "\"\(id.prefix(100))\" is not \(EclipseQuery.idAccepted)")
    }

    /// The eclipse an id names, or a 404 naming the form and the eclipses near that date.
    static func eclipse(_ id: String, sky: SkyEngine, conventions: EclipseConventions) throws(ProblemDetails) -> EclipseItem {
        guard let (day, kind) = SkyEngine.parseEclipseID(id) else { throw notAnEclipseID(id) }
        if kind == "solar", let e = sky.solarEclipse(id: id, conventions: conventions) { return .solar(e) }
        if kind == "lunar", let e = sky.lunarEclipse(id: id, conventions: conventions) { return .lunar(e) }
        let year = 365.25 * 86_400
        let near = kind == "solar" ? sky.solarEclipses(start: day.adding(seconds: -year), stop: day.adding(seconds: year), conventions: conventions).map(\.id)
                                   : sky.lunarEclipses(start: day.adding(seconds: -year), stop: day.adding(seconds: year), conventions: conventions).map(\.id)
        throw ProblemDetails.unknownId("eclipse", id: id, parameter: nil, valid: near)
    }

    /// `GET /v1/eclipses/{id}`: one eclipse with everything the list gives.
    func eclipsePlan(_ req: HTTPRequest, _ ctx: RequestContext) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(EclipseQuery.conventionParameters)
        let id = try ctx.parameters.require("id")
        let conventions = try EclipseQuery.conventions(q)
        let sky = services.sky
        let key = ResponseKey.eclipses(EclipseKey(route: "eclipse", instants: [], observer: nil, detail: "\(id);\(EclipseQuery.key(conventions))", csv: false))
        return encodedPlan(key, freshness: .fixed) {
            let item = try Self.eclipse(id, sky: sky, conventions: conventions)
            var w = JSONWriter(capacity: 2048)
            w.object { w in
                item.write(into: &w)
                EclipseEncoding.conventions(conventions, into: &w)
            }
            return w.bytes
        }
    }

    /// `GET /v1/eclipses/{id}/path`: a solar eclipse's path as GeoJSON.
    func eclipsePathPlan(_ req: HTTPRequest, _ ctx: RequestContext) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(EclipseQuery.conventionParameters)
        let id = try ctx.parameters.require("id")
        let conventions = try EclipseQuery.conventions(q)
        if let (_, kind) = SkyEngine.parseEclipseID(id), kind == "lunar" {
            throw ProblemDetails(status: .notFound, title: "No path", detail: "a lunar eclipse has no path on the Earth (it is seen wherever the Moon is up): ask /v1/eclipses/\(id) or /v1/eclipses/local?kind=lunar; paths are for YYYY-MM-DD-solar ids")
        }
        let sky = services.sky
        let key = ResponseKey.eclipses(EclipseKey(route: "path", instants: [], observer: nil, detail: "\(id);\(EclipseQuery.key(conventions))", csv: false))
        return encodedPlan(key, freshness: .fixed, contentType: "application/geo+json") {
            guard case let .solar(e) = try Self.eclipse(id, sky: sky, conventions: conventions) else { return [] }
            return EclipseEncoding.geoJSON(e, e.path())
        }
    }

    /// `GET /v1/eclipses/local?lat=&lon=&elevation=&kind=&start=&stop=&includeBelowHorizon=`:
    /// the solar (default) or lunar eclipses seen from a place, with their contacts there.
    func localEclipsesPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(SkyQuery.observerParameters.union(EclipseQuery.conventionParameters).union(["kind", "start", "stop", "includeBelowHorizon", "format"]))
        let observer = try SkyQuery.observer(q)
        let kind = try q.oneOf("kind", ["solar", "lunar"], default: "solar")
        let includeBelow = try q.bool("includeBelowHorizon", default: false)
        let conventions = try EclipseQuery.conventions(q)
        let span = try EclipseQuery.span(q, clock: services.clock, defaultYears: kind == "solar" ? 20 : 6)
        let csv = try wantsCSV(req)
        if csv, kind == "lunar" { throw ProblemDetails.invalidParameter("format", value: "csv", accepted: "json for kind=lunar (CSV is offered for solar eclipses)") }
        let sky = services.sky
        let detail = "\(kind);\(includeBelow);\(span.stopGiven);\(EclipseQuery.key(conventions))"
        let key = ResponseKey.eclipses(EclipseKey(route: "local", instants: [span.start, span.stop], observer: observer, detail: detail, csv: csv))
        let heavy = span.stop.seconds(since: span.start) > 200 * 365.25 * 86_400
        return encodedPlan(key, freshness: span.freshness, contentType: csv ? Self.csvContentType : HTTPResponse.jsonContentType,
                           cost: heavy ? .heavy : nil, finish: { $0.varying(on: "Accept") }) {
            var w = JSONWriter(capacity: 4096)
            func head(_ w: inout JSONWriter, count: Int) {
                SkyEncoding.writeSetting(observer, nil, model: nil, into: &w)
                w.key("start"); w.string(span.start.iso8601)
                w.key("stop"); w.string(span.stop.iso8601)
                w.key("count"); w.int(count)
                w.key("includeBelowHorizon"); w.bool(includeBelow)
                w.key("definitions"); w.string(Self.localDefinitions)
                EclipseEncoding.conventions(conventions, into: &w)
            }
            if kind == "lunar" {
                var list = sky.localLunarEclipses(from: observer, start: span.start, stop: span.stop, conventions: conventions, includeBelowHorizon: includeBelow)
                if !span.stopGiven { list = Array(list.prefix(Self.defaultEclipseCount)) }
                w.object { w in
                    head(&w, count: list.count)
                    w.key("eclipses"); w.array { w in for l in list { w.object { w in EclipseEncoding.lunar(l.eclipse, into: &w, local: l); w.key("visible"); w.bool(l.visible) } } }
                }
                return w.bytes
            }
            var list = sky.localSolarEclipses(from: observer, start: span.start, stop: span.stop, conventions: conventions, includeBelowHorizon: includeBelow)
            if !span.stopGiven { list = Array(list.prefix(Self.defaultEclipseCount)) }
            if csv { return Array((EclipseEncoding.localCSVHeader + list.map(EclipseEncoding.csv).joined()).utf8) }
            w.object { w in
                head(&w, count: list.count)
                w.key("eclipses"); w.array { w in for l in list { w.object { w in EclipseEncoding.localSolar(l, into: &w) } } }
            }
            return w.bytes
        }
    }

    static let localDefinitions = "contacts: partial begin/end where the Moon's limb meets the Sun's (k 0.2725076), central begin/end where it is internally tangent (k 0.272281 with lunarRadius=nasa), maximum when the place is nearest the shadow axis; altitudes airless (geometric) of the body's centre, negative below the horizon; position angles of the point of contact from the Sun's north point through east; lunar contacts are the Moon's with the Earth's penumbra (P1, P4) and umbra (U1-U4), the same for every place, with the Moon's altitude there"

    /// `GET /v1/transits?body=&start=&stop=[&lat=&lon=&elevation=]`: transits of Mercury and
    /// Venus (default both), geocentric or from a place.
    func transitsPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(SkyQuery.observerParameters.union(["body", "start", "stop"]))
        let bodies: [BodyID] = try q.oneOf("body", ["mercury", "venus"]).map { [BodyID(rawValue: $0)!] } ?? SkyEngine.transitBodies
        let observer: Observer? = q.contains("lat") || q.contains("lon") || q.contains("elevation") ? try SkyQuery.observer(q) : nil
        let span = try EclipseQuery.span(q, clock: services.clock, defaultYears: 100)
        let sky = services.sky
        let key = ResponseKey.eclipses(EclipseKey(route: "transits", instants: [span.start, span.stop], observer: observer,
                                                  detail: bodies.map(\.rawValue).joined(separator: ","), csv: false))
        let heavy = span.stop.seconds(since: span.start) > 200 * 365.25 * 86_400
        return encodedPlan(key, freshness: span.freshness, cost: heavy ? .heavy : nil) {
            let list = bodies.flatMap { sky.transits($0, start: span.start, stop: span.stop, observer: observer) }.sorted { $0.greatest < $1.greatest }
            var w = JSONWriter(capacity: 1024 + list.count * 600)
            w.object { w in
                if let observer { SkyEncoding.writeSetting(observer, nil, model: nil, into: &w) } else { w.key("observer"); w.null() }
                w.key("start"); w.string(span.start.iso8601)
                w.key("stop"); w.string(span.stop.iso8601)
                w.key("count"); w.int(list.count)
                w.key("definitions"); w.string("contacts I and IV: the planet's disc externally tangent to the Sun's (Sun 959.63\" at 1 au, the planet's IAU radius), II and III internally tangent; greatest: least separation of the centres; \(observer == nil ? "geocentric" : "topocentric"), light time for the planet")
                w.key("transits"); w.array { w in for t in list { w.object { w in EclipseEncoding.transit(t, into: &w) } } }
            }
            return w.bytes
        }
    }

    /// `GET /v1/views/eclipse.{svg,png}?id=&width=&height=`: a solar eclipse's path on the world map.
    func eclipseViewPlan(_ req: HTTPRequest, png: Bool) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(EclipseQuery.conventionParameters.union(["id", "width", "height"]))
        guard let id = try q.string("id") else { throw ProblemDetails.missingParameter("id", accepted: "a solar eclipse id, YYYY-MM-DD-solar (e.g. 2027-08-02-solar)") }
        // Not a solar id: a bad parameter. A solar id that names no date: no such eclipse, as
        // `/v1/eclipses/{id}` answers it.
        guard id.hasSuffix("-solar") else {
            throw ProblemDetails.invalidParameter("id", value: id, accepted: "a solar eclipse id, YYYY-MM-DD-solar (e.g. 2027-08-02-solar)")
        }
        guard SkyEngine.parseEclipseID(id) != nil else { throw Self.notAnEclipseID(id) }
        let width = try q.int("width", in: EclipseMap.widthRange, default: 1440)
        let height = try q.int("height", in: EclipseMap.widthRange.lowerBound / 2...EclipseMap.widthRange.upperBound / 2, default: width / 2)
        let conventions = try EclipseQuery.conventions(q)
        let sky = services.sky
        let earth = services.renderer?.caster.textures.surfaces[.earth]
        let key = ResponseKey.eclipses(EclipseKey(route: png ? "map.png" : "map.svg", instants: [], observer: nil,
                                                  detail: "\(id);\(width)x\(height);\(EclipseQuery.key(conventions))", csv: false))
        return encodedPlan(key, freshness: .fixed, contentType: png ? "image/png" : "image/svg+xml; charset=utf-8") {
            guard case let .solar(e) = try Self.eclipse(id, sky: sky, conventions: conventions) else { return [] }
            let map = Self.eclipseMap(e, e.path(), width: width, height: height)
            return png ? PNGEncoder.encode(map.raster(earth: earth)) : Array(map.svg(earthHref: earth == nil ? nil : "/v1/textures/earth.png").utf8)
        }
    }

    /// What the map draws: the curves in their colours, greatest eclipse, the central line's
    /// times every 15 minutes.
    static func eclipseMap(_ e: SolarEclipse, _ path: EclipsePath, width: Int, height: Int) -> EclipseMap {
        func segments(_ c: EclipsePath.Curve) -> [[(latitudeDeg: Double, longitudeDeg: Double)]] {
            (path.curves[c] ?? []).map { $0.map { ($0.latitudeDeg, $0.longitudeDeg) } }
        }
        var curves: [EclipseMap.Curve] = [
            .init(name: "partial eclipse limits", color: RGBColor(0.35, 0.8, 1), width: 1.5,
                  segments: segments(.penumbralNorthernLimit) + segments(.penumbralSouthernLimit)),
            .init(name: "begins or ends at sunrise/sunset", color: RGBColor(0.7, 0.55, 1), width: 1.2,
                  segments: segments(.beginsAtSunrise) + segments(.beginsAtSunset) + segments(.endsAtSunrise) + segments(.endsAtSunset)),
        ]
        if !path.central.isEmpty {
            curves.append(.init(name: "\(e.type.rawValue) path limits", color: RGBColor(1, 0.3, 0.25), width: 2,
                                segments: segments(.northernLimit) + segments(.southernLimit)))
            curves.append(.init(name: "central line", color: RGBColor(1, 0.85, 0.3), width: 1.5,
                                segments: [path.central.map { ($0.place.latitudeDeg, $0.place.longitudeDeg) }]))
        }
        var labels: [EclipseMap.Label] = []
        for c in path.central {
            let iso = c.place.instant.iso8601
            // Every quarter hour: hh:mm with minutes 00, 15, 30, 45.
            let hm = iso.split(separator: "T").last.map { String($0.prefix(5)) } ?? ""
            if hm.hasSuffix(":00") || hm.hasSuffix(":15") || hm.hasSuffix(":30") || hm.hasSuffix(":45") { labels.append(.init(latitudeDeg: c.place.latitudeDeg, longitudeDeg: c.place.longitudeDeg, text: hm)) }
        }
        let duration = e.centralDurationSeconds.map { d in
            let s = (d.truncatingRemainder(dividingBy: 60) * 10).rounded() / 10
            return ", central duration \(Int(d) / 60)m\(s < 10 ? "0" : "")\(s)s"
        } ?? ""
        let title = "\(e.type.rawValue.capitalized) solar eclipse \(e.id.dropLast(6)), greatest \(e.greatest.iso8601.prefix(19))Z, magnitude \(EclipseEncoding.r4(e.magnitude))\(duration)"
        return EclipseMap(title: title, curves: curves, greatest: .init(latitudeDeg: e.greatestLatitudeDeg, longitudeDeg: e.greatestLongitudeDeg, text: "greatest eclipse"),
                          timeLabels: labels, width: width, height: height)
    }
}

/// One entry of an eclipse list.
enum EclipseItem: Sendable {
    case solar(SolarEclipse), lunar(LunarEclipse)

    var greatest: Instant {
        switch self { case let .solar(e): return e.greatest; case let .lunar(e): return e.greatest }
    }

    func write(into w: inout JSONWriter) {
        switch self {
        case let .solar(e): EclipseEncoding.solar(e, into: &w)
        case let .lunar(e): EclipseEncoding.lunar(e, into: &w)
        }
    }

    var csv: String {
        switch self { case let .solar(e): return EclipseEncoding.csv(e); case let .lunar(e): return EclipseEncoding.csv(e) }
    }
}

/// What a cached eclipse answer depends on.
public struct EclipseKey: Hashable, Sendable {
    let route: String
    let instants: [Instant]
    let observer: Observer?
    let detail: String
    let csv: Bool
}
