import Glibc
import Ephemeris
import Sky

/// Where a table is taken from (`CENTER`): a body's centre (`'500@10'`, `'@0'`, `'@sun'`, `'10'`,
/// `'500@399'`, `'500'`, `'geo'`), a site on the Earth by its MPC code (`'675'`, `'F51@399'`), or
/// a site given by coordinates (`'coord@399'` with `SITE_COORD` and `COORD_TYPE`).
struct HorizonsCenter: Sendable {
    /// The body the centre is on or at.
    let body: HorizonsBody
    /// A site on the Earth (nil: the body's centre).
    let observer: Observer?
    /// `BODY CENTER`, `GEOCENTRIC`, or the site's name.
    let siteName: String
    /// The `Center geodetic` and `Center cylindric` lines' values.
    let geodetic: String
    let cylindrical: String

    var isGeocenter: Bool { observer == nil && body.id == 399 }

    /// A Horizons-style failure naming the centre it could not read.
    static func failure(_ raw: String, _ why: String) -> HorizonsFailure {
        HorizonsFailure(" Cannot use CENTER = \(raw): \(why)")
    }
}

extension HorizonsContext {
    /// Reads `CENTER` (with `SITE_COORD`, `COORD_TYPE` for `coord@399`).
    func center(_ raw: String, siteCoord: String?, coordType: String) throws(HorizonsFailure) -> HorizonsCenter {
        let text = raw.trimmingBlanks()
        let lower = text.lowercased()
        let site: String, bodyPart: String?
        if let at = text.firstIndex(of: "@") {
            site = String(text[..<at]).trimmingBlanks()
            bodyPart = String(text[text.index(after: at)...]).trimmingBlanks()
        } else {
            site = text
            bodyPart = nil
        }
        guard let bodyPart else {
            // No `@`: a site on the Earth by code, the geocentre, or a body named alone.
            if ["geo", "geocentric", "geocenter", "500"].contains(lower) { return try bodyCenter(399, raw: raw) }
            if lower == "coord" { return try coordinates(raw, siteCoord: siteCoord, coordType: coordType) }
            if let s = observatories[text], text.count == 3 { return try earthSite(s, raw: raw) }
            if let id = Int(text) { return try bodyCenter(id, raw: raw) }
            return try namedCenter(text, raw: raw)
        }
        let bodyID: Int
        if bodyPart.isEmpty {
            bodyID = 399
        } else if let id = Int(bodyPart) {
            bodyID = id
        } else {
            let matches = majorMatches(bodyPart)
            let exact = matches.filter { $0.name.uppercased() == bodyPart.uppercased() || $0.aliases.uppercased() == bodyPart.uppercased() }
            guard let m = exact.count == 1 ? exact[0] : (matches.count == 1 ? matches[0] : nil) else {
                throw HorizonsCenter.failure(raw, matches.isEmpty ? "no major body matches \"\(bodyPart)\"" : "\"\(bodyPart)\" matches \(matches.count) major bodies (\(matches.map { "\($0.name) (\($0.id))" }.joined(separator: ", "))); use the ID#")
            }
            bodyID = m.id
        }
        if site.isEmpty || site == "500" { return try bodyCenter(bodyID, raw: raw) }
        guard bodyID == 399 else {
            throw HorizonsCenter.failure(raw, "this server places sites on the Earth only (site@399); use @\(bodyID) for the body's centre")
        }
        if site.lowercased() == "coord" { return try coordinates(raw, siteCoord: siteCoord, coordType: coordType) }
        guard let s = observatories[site] else {
            throw HorizonsCenter.failure(raw, "no observatory code \(site) in \(observatories.source) (\(observatories.count) sites loaded; see --observatories)")
        }
        return try earthSite(s, raw: raw)
    }

    func bodyCenter(_ id: Int, raw: String) throws(HorizonsFailure) -> HorizonsCenter {
        guard let b = majorBody(id) else {
            throw HorizonsCenter.failure(raw, "\(id) is not a body this server places (the major bodies are listed by COMMAND='MB')")
        }
        let zero = "0.00000000,0.00000000,0.0000000"
        return HorizonsCenter(body: b, observer: nil, siteName: id == 399 ? "GEOCENTRIC" : "BODY CENTER", geodetic: zero, cylindrical: zero)
    }

    func namedCenter(_ name: String, raw: String) throws(HorizonsFailure) -> HorizonsCenter {
        let lower = name.lowercased()
        if lower == "ssb" { return try bodyCenter(0, raw: raw) }
        if lower == "sun" { return try bodyCenter(10, raw: raw) }
        let matches = majorMatches(name)
        let exact = matches.filter { $0.name.lowercased() == lower || $0.aliases.lowercased() == lower }
        guard let m = exact.count == 1 ? exact[0] : (matches.count == 1 ? matches[0] : nil) else {
            throw HorizonsCenter.failure(raw, matches.isEmpty ? "no observatory code or major body matches \"\(name)\"" : "\"\(name)\" matches \(matches.count) major bodies; use the ID#")
        }
        return try bodyCenter(m.id, raw: raw)
    }

    func earthSite(_ s: ObservatoryCodes.Site, raw: String) throws(HorizonsFailure) -> HorizonsCenter {
        if s.code == "500" { return try bodyCenter(399, raw: raw) }
        guard let o = s.observer, let lon = s.longitudeDeg, let c = s.rhoCosPhi, let z = s.rhoSinPhi else {
            throw HorizonsCenter.failure(raw, "site \(s.code) (\(s.name)) is not on the Earth's surface; this server has no orbit for it")
        }
        let earth = try bodyCenter(399, raw: raw).body
        let geodetic = "\(HorizonsText.fixed(lon, 8)),\(HorizonsText.fixed(o.latitudeDeg, 8)),\(HorizonsText.fixed(o.elevationM / 1000, 7))"
        let cylindrical = "\(HorizonsText.fixed(lon, 8)),\(HorizonsText.fixed(c * ObservatoryCodes.earthRadiusKm, 8)),\(HorizonsText.fixed(z * ObservatoryCodes.earthRadiusKm, 8))"
        return HorizonsCenter(body: earth, observer: o, siteName: s.name, geodetic: geodetic, cylindrical: cylindrical)
    }

    /// `coord@399`: `SITE_COORD='E-lon,lat,alt'` (degrees, km; `GEODETIC`) or `'E-lon,dxy,dz'`
    /// (km from the axis and from the equator; `CYLINDRICAL`).
    func coordinates(_ raw: String, siteCoord: String?, coordType: String) throws(HorizonsFailure) -> HorizonsCenter {
        guard let siteCoord else { throw HorizonsCenter.failure(raw, "coord@399 takes its site from SITE_COORD='E-lon,lat,alt'") }
        let v = siteCoord.split(separator: ",").map { Double($0.trimmingBlanks()) }
        guard v.count == 3, let a = v[0], let b = v[1], let c = v[2], a.isFinite, b.isFinite, c.isFinite else {
            throw HorizonsFailure.badValue("SITE_COORD", siteCoord, accepted: coordType == "CYLINDRICAL" ? "'E-lon(deg),Dxy(km),Dz(km)'" : "'E-lon(deg),Lat(deg),Alt(km)'")
        }
        let earth = try bodyCenter(399, raw: raw).body
        let observer: Observer
        do {
            if coordType == "CYLINDRICAL" {
                observer = try Observer(longitudeDeg: a, axisDistanceKm: b, equatorDistanceKm: c)
            } else {
                var lon = Angle.normalizedDegrees(a)
                if lon > 180 { lon -= 360 }
                observer = try Observer(latitudeDeg: b, longitudeDeg: lon, elevationM: c * 1000)
            }
        } catch {
            throw HorizonsFailure.badValue("SITE_COORD", siteCoord, accepted: error.accepted)
        }
        // User-defined places are echoed as given (astroquery's tests read them back).
        let echo = [a, b, c].map { Self.echo($0) }.joined(separator: ", ")
        let p = observer.terrestrialKm
        let cylindrical = "\(HorizonsText.fixed(Angle.normalizedDegrees(observer.longitudeDeg), 8)),\(HorizonsText.fixed((p.x * p.x + p.y * p.y).squareRoot(), 8)),\(HorizonsText.fixed(p.z, 8))"
        return HorizonsCenter(body: earth, observer: observer, siteName: "(user defined site below)",
                              geodetic: coordType == "CYLINDRICAL" ? "\(HorizonsText.fixed(Angle.normalizedDegrees(a), 8)),\(HorizonsText.fixed(observer.latitudeDeg, 8)),\(HorizonsText.fixed(observer.elevationM / 1000, 7))" : echo,
                              cylindrical: coordType == "CYLINDRICAL" ? echo : cylindrical)
    }

    /// A user's coordinate rounded to 8 decimals and printed in its shortest form (`244.0`).
    static func echo(_ v: Double) -> String {
        let r = (v * 1e8).rounded() / 1e8
        return "\(r)"
    }

    /// The centre's heliocentric ecliptic J2000 state (km, km/s) at TDB seconds: a body's, or a
    /// site's (the Earth's centre plus the site turned with the Earth at that instant).
    func centerState(_ c: HorizonsCenter, seconds: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        guard let o = c.observer else { return c.body.stateKm(seconds) }
        let t = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        let site = sky.siteState(o, at: sky.time(t))
        let m = Precession.equatorialToEclipticJ2000
        return (m * site.positionAU * Constants.auKm, m * site.velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay))
    }
}
