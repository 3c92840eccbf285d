import Ephemeris
import Sky

/// JSON, CSV and GeoJSON of eclipses, transits and occultations.
enum EclipseEncoding {
    @inline(__always) static func r6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }
    @inline(__always) static func r4(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }
    @inline(__always) static func r3(_ v: Double) -> Double { (v * 1e3).rounded() / 1e3 }
    @inline(__always) static func r1(_ v: Double) -> Double { (v * 10).rounded() / 10 }

    static func time(_ key: String, _ t: Instant?, into w: inout JSONWriter, extra: (inout JSONWriter) -> Void = { _ in }) {
        w.key(key)
        guard let t else { return w.null() }
        w.object { w in
            w.key("date"); w.string(t.iso8601)
            w.key("jdTT"); w.number(t.jdTT)
            extra(&w)
        }
    }

    static func conventions(_ c: EclipseConventions, into w: inout JSONWriter) {
        w.key("conventions")
        w.object { w in
            w.key("lunarRadius"); w.string(c.lunarRadius.rawValue)
            let k = c.lunarRadius == .nasa ? (EclipseConstants.kLimb, EclipseConstants.kUmbral) : (EclipseConstants.kLimb, EclipseConstants.kLimb)
            w.key("kPartial"); w.number(k.0)
            w.key("kCentral"); w.number(k.1)
            w.key("shadow"); w.string(c.shadow.rawValue)
            w.key("deltaT"); if let dt = c.deltaTSeconds { w.number(dt) } else { w.string("table") }
            w.key("statement"); w.string(c.statement)
        }
    }

    static func deltaT(_ seconds: Double, _ source: String, into w: inout JSONWriter) {
        w.key("deltaTSeconds"); w.number(r3(seconds))
        w.key("deltaTSource"); w.string(source)
    }

    static func solar(_ e: SolarEclipse, into w: inout JSONWriter) {
        w.key("id"); w.string(e.id)
        w.key("kind"); w.string("solar")
        w.key("type"); w.string(e.type.rawValue)
        w.key("central"); w.bool(e.central)
        w.key("saros"); w.int(e.saros)
        w.key("lunation"); w.int(e.lunation)
        time("greatest", e.greatest, into: &w) { w in
            w.key("latitude"); w.number(r4(e.greatestLatitudeDeg))
            w.key("longitude"); w.number(r4(e.greatestLongitudeDeg))
            w.key("sunAltitudeDeg"); w.number(r3(e.sunAltitudeDeg))
            w.key("sunAzimuthDeg"); w.number(r3(e.sunAzimuthDeg))
        }
        w.key("gamma"); w.number(r6(e.gamma))
        w.key("magnitude"); w.number(r6(e.magnitude))
        SkyEncoding.optional("pathWidthKm", e.pathWidthKm.map(r1), into: &w)
        SkyEncoding.optional("centralDurationSeconds", e.centralDurationSeconds.map(r1), into: &w)
        w.key("contacts")
        w.object { w in
            time("partialBegin", e.partialBegin, into: &w)
            time("centralBegin", e.centralBegin, into: &w)
            time("centralEnd", e.centralEnd, into: &w)
            time("partialEnd", e.partialEnd, into: &w)
        }
        deltaT(e.deltaTSeconds, e.deltaTSource, into: &w)
    }

    static func lunar(_ e: LunarEclipse, into w: inout JSONWriter, local: LocalLunarEclipse? = nil) {
        w.key("id"); w.string(e.id)
        w.key("kind"); w.string("lunar")
        w.key("type"); w.string(e.type.rawValue)
        w.key("saros"); w.int(e.saros)
        w.key("lunation"); w.int(e.lunation)
        time("greatest", e.greatest, into: &w) { w in
            if let local { moon(local.greatest, into: &w); return }
            w.key("latitude"); w.number(r4(e.zenithLatitudeDeg))
            w.key("longitude"); w.number(r4(e.zenithLongitudeDeg))
        }
        w.key("gamma"); w.number(r6(e.gamma))
        w.key("penumbralMagnitude"); w.number(r6(e.penumbralMagnitude))
        w.key("umbralMagnitude"); w.number(r6(e.umbralMagnitude))
        w.key("contacts")
        w.object { w in
            for (i, c) in e.contacts.enumerated() {
                let seen = local?.contacts[i].contact
                time(c.name, c.instant, into: &w) { w in if let seen { moon(seen, into: &w) } }
            }
        }
        deltaT(e.deltaTSeconds, e.deltaTSource, into: &w)
    }

    static func moon(_ c: EclipseContact, into w: inout JSONWriter) {
        w.key("moonAltitudeDeg"); w.number(r3(c.altitudeDeg))
        w.key("moonAzimuthDeg"); w.number(r3(c.azimuthDeg))
        w.key("aboveHorizon"); w.bool(c.aboveHorizon)
    }

    static func sunContact(_ key: String, _ c: EclipseContact?, into w: inout JSONWriter) {
        time(key, c?.instant, into: &w) { w in
            guard let c else { return }
            w.key("sunAltitudeDeg"); w.number(r3(c.altitudeDeg))
            w.key("sunAzimuthDeg"); w.number(r3(c.azimuthDeg))
            SkyEncoding.optional("positionAngleDeg", c.positionAngleDeg.map(r1), into: &w)
            w.key("aboveHorizon"); w.bool(c.aboveHorizon)
        }
    }

    static func localSolar(_ l: LocalSolarEclipse, into w: inout JSONWriter) {
        w.key("id"); w.string(l.eclipse.id)
        w.key("kind"); w.string("solar")
        w.key("type"); w.string(l.type.rawValue)
        w.key("eclipseType"); w.string(l.eclipse.type.rawValue)
        w.key("magnitude"); w.number(r6(l.magnitude))
        w.key("obscuration"); w.number(r6(l.obscuration))
        SkyEncoding.optional("centralDurationSeconds", l.centralDurationSeconds.map(r1), into: &w)
        w.key("visible"); w.bool(l.visible)
        w.key("contacts")
        w.object { w in
            sunContact("partialBegin", l.partialBegin, into: &w)
            sunContact("centralBegin", l.centralBegin, into: &w)
            sunContact("maximum", l.maximum, into: &w)
            sunContact("centralEnd", l.centralEnd, into: &w)
            sunContact("partialEnd", l.partialEnd, into: &w)
        }
        deltaT(l.eclipse.deltaTSeconds, l.eclipse.deltaTSource, into: &w)
    }

    static func transit(_ t: Transit, into w: inout JSONWriter) {
        w.key("id"); w.string(t.id)
        w.key("body"); w.string(t.body.rawValue)
        func altitude(_ i: Int, _ w: inout JSONWriter) {
            guard let a = t.sunAltitudesDeg?[i] else { return }
            w.key("sunAltitudeDeg"); w.number(r3(a))
            w.key("aboveHorizon"); w.bool(a > 0)
        }
        w.key("contacts")
        w.object { w in
            for (i, c) in t.contacts.enumerated() { time(c.name, c.instant, into: &w) { w in altitude(i < 2 ? i : i + 1, &w) } }
        }
        time("greatest", t.greatest, into: &w) { w in altitude(2, &w) }
        w.key("minimumSeparationArcsec"); w.number(r3(t.minimumSeparationArcsec))
        w.key("sunSemidiameterArcsec"); w.number(r3(t.sunSemidiameterArcsec))
        w.key("planetSemidiameterArcsec"); w.number(r3(t.planetSemidiameterArcsec))
    }

    static func occultation(_ o: Occultation, into w: inout JSONWriter) {
        w.key("target"); w.string(o.target)
        SkyEncoding.optional("targetMagnitude", o.targetMagnitude, into: &w)
        for (key, c) in [("disappearance", o.disappearance), ("reappearance", o.reappearance)] {
            time(key, c.instant, into: &w) { w in
                w.key("positionAngleDeg"); w.number(r1(c.positionAngleDeg))
                w.key("limb"); w.string(c.limb)
                w.key("moonAltitudeDeg"); w.number(r3(c.moonAltitudeDeg))
                w.key("moonAzimuthDeg"); w.number(r3(c.moonAzimuthDeg))
            }
        }
    }

    // MARK: - CSV

    static let csvHeader = "id,kind,type,saros,greatest_utc,greatest_jd_tt,latitude_deg,longitude_deg,sun_altitude_deg,gamma,magnitude,penumbral_magnitude,umbral_magnitude,path_width_km,central_duration_s,delta_t_s\n"

    static func csv(_ e: SolarEclipse) -> String {
        "\(e.id),solar,\(e.type.rawValue),\(e.saros),\(e.greatest.iso8601),\(e.greatest.jdTT),\(r4(e.greatestLatitudeDeg)),\(r4(e.greatestLongitudeDeg)),\(r3(e.sunAltitudeDeg)),\(r6(e.gamma)),\(r6(e.magnitude)),,,\(e.pathWidthKm.map { "\(r1($0))" } ?? ""),\(e.centralDurationSeconds.map { "\(r1($0))" } ?? ""),\(r3(e.deltaTSeconds))\n"
    }

    static func csv(_ e: LunarEclipse) -> String {
        "\(e.id),lunar,\(e.type.rawValue),\(e.saros),\(e.greatest.iso8601),\(e.greatest.jdTT),\(r4(e.zenithLatitudeDeg)),\(r4(e.zenithLongitudeDeg)),,\(r6(e.gamma)),,\(r6(e.penumbralMagnitude)),\(r6(e.umbralMagnitude)),,,\(r3(e.deltaTSeconds))\n"
    }

    static let localCSVHeader = "id,type,magnitude,obscuration,partial_begin_utc,partial_begin_sun_alt_deg,central_begin_utc,maximum_utc,maximum_sun_alt_deg,maximum_sun_az_deg,central_end_utc,partial_end_utc,partial_end_sun_alt_deg,central_duration_s\n"

    static func csv(_ l: LocalSolarEclipse) -> String {
        "\(l.eclipse.id),\(l.type.rawValue),\(r6(l.magnitude)),\(r6(l.obscuration)),\(l.partialBegin.instant.iso8601),\(r3(l.partialBegin.altitudeDeg)),\(l.centralBegin?.instant.iso8601 ?? ""),\(l.maximum.instant.iso8601),\(r3(l.maximum.altitudeDeg)),\(r3(l.maximum.azimuthDeg)),\(l.centralEnd?.instant.iso8601 ?? ""),\(l.partialEnd.instant.iso8601),\(r3(l.partialEnd.altitudeDeg)),\(l.centralDurationSeconds.map { "\(r1($0))" } ?? "")\n"
    }

    // MARK: - GeoJSON

    /// A FeatureCollection (RFC 7946; [longitude, latitude], WGS 84): the central line (its
    /// times, durations and widths as properties), each limit and horizon curve as a
    /// MultiLineString, and the point of greatest eclipse.
    static func geoJSON(_ e: SolarEclipse, _ path: EclipsePath) -> [UInt8] {
        var w = JSONWriter(capacity: 64 * 1024)
        func position(_ lat: Double, _ lon: Double, _ w: inout JSONWriter) { w.numbers([r4(lon), r4(lat)]) }
        w.object { w in
            w.key("type"); w.string("FeatureCollection")
            w.key("id"); w.string(e.id)
            w.key("features")
            w.array { w in
                w.object { w in
                    w.key("type"); w.string("Feature")
                    w.key("id"); w.string("greatest-eclipse")
                    w.key("geometry")
                    w.object { w in w.key("type"); w.string("Point"); w.key("coordinates"); position(e.greatestLatitudeDeg, e.greatestLongitudeDeg, &w) }
                    w.key("properties")
                    w.object { w in
                        w.key("name"); w.string("greatest-eclipse")
                        solar(e, into: &w)
                    }
                }
                if !path.central.isEmpty {
                    w.object { w in
                        w.key("type"); w.string("Feature")
                        w.key("id"); w.string("central-line")
                        w.key("geometry")
                        w.object { w in
                            w.key("type"); w.string("LineString")
                            w.key("coordinates")
                            w.array { w in for c in path.central { position(c.place.latitudeDeg, c.place.longitudeDeg, &w) } }
                        }
                        w.key("properties")
                        w.object { w in
                            w.key("name"); w.string("central-line")
                            w.key("times"); w.array { w in for c in path.central { w.string(c.place.instant.iso8601) } }
                            w.key("durationsSeconds"); w.array { w in for c in path.central { if let d = c.durationSeconds { w.number(r1(d)) } else { w.null() } } }
                            w.key("pathWidthsKm"); w.array { w in for c in path.central { if let d = c.pathWidthKm { w.number(r1(d)) } else { w.null() } } }
                            w.key("sunAltitudesDeg"); w.array { w in for c in path.central { w.number(r1(c.sunAltitudeDeg)) } }
                        }
                    }
                }
                for curve in EclipsePath.Curve.allCases {
                    guard let segments = path.curves[curve], !segments.isEmpty else { continue }
                    w.object { w in
                        w.key("type"); w.string("Feature")
                        w.key("id"); w.string(curve.rawValue)
                        w.key("geometry")
                        w.object { w in
                            w.key("type"); w.string("MultiLineString")
                            w.key("coordinates")
                            w.array { w in
                                for s in Self.splitAtDateLine(segments) {
                                    w.array { w in for p in s { position(p.latitudeDeg, p.longitudeDeg, &w) } }
                                }
                            }
                        }
                        w.key("properties")
                        w.object { w in
                            w.key("name"); w.string(curve.rawValue)
                            w.key("times")
                            w.array { w in for s in Self.splitAtDateLine(segments) { w.array { w in for p in s { w.string(p.instant.iso8601) } } } }
                        }
                    }
                }
            }
            w.key("stepSeconds")
            w.object { w in
                w.key("centralLine"); w.number(EclipsePath.centralStepSeconds)
                w.key("curves"); w.number(EclipsePath.curveStepSeconds)
            }
            conventions(e.conventions, into: &w)
        }
        return w.bytes
    }

    /// Segments broken where they cross the antimeridian (RFC 7946 §3.1.9), each at least two
    /// positions long (a lone point is repeated).
    static func splitAtDateLine(_ segments: [[EclipsePath.Place]]) -> [[EclipsePath.Place]] {
        var out: [[EclipsePath.Place]] = []
        for s in segments {
            var current: [EclipsePath.Place] = []
            for p in s {
                if let last = current.last, abs(p.longitudeDeg - last.longitudeDeg) > 180 { out.append(current); current = [] }
                current.append(p)
            }
            out.append(current)
        }
        return out.filter { !$0.isEmpty }.map { $0.count == 1 ? $0 + $0 : $0 }
    }
}
