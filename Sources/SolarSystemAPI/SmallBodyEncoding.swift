import Ephemeris
import SmallBodies

/// The JSON of small bodies: a catalogue entry (`/v1/bodies/sb:…`, `?kind=small-body`) and a
/// close approach (`/v1/close-approaches`).
enum SmallBodyEncoding {
    /// `{id, kind, type, name, designation, number, fullName, nameSlug, orbitClass, elements,
    /// epoch, source, brightness, nonGravitational, trustedSpan}`.
    /// `nameSlug` is given only when the name's slug leads to this body (`directory`): the
    /// asteroid 3 Juno's `juno` is the Juno spacecraft's id, so it is `sb:3` alone.
    static func write(_ h: SmallBodyCatalogue.Handle, current: SmallBodyFeed.Current, directory: BodyDirectory, detail: Bool, into w: inout JSONWriter) {
        let c = current.catalogue
        let b = c.body(h)
        w.object { w in
            w.key("id"); w.string(c.id(h))
            w.key("type"); w.string(b.kind.rawValue)
            w.key("kind"); w.string("small-body")
            w.key("fullName"); w.string(b.fullName)
            w.key("name"); if let name = b.name { w.string(name) } else { w.null() }
            w.key("designation"); w.string(b.designation)
            w.key("number"); if let n = b.number { w.int(n) } else { w.null() }
            w.key("nameSlug")
            if let slug = c.nameSlug(h), case let .smallBody(id, _, _)? = try? directory.resolve(slug, parameter: nil), id == c.id(h) {
                w.string(slug)
            } else {
                w.null()
            }
            w.key("orbitClass")
            w.object { w in
                w.key("code"); w.string(b.orbitClass.code)
                w.key("name"); w.string(b.orbitClass.name)
            }
            guard detail else { return }
            let e = b.elements
            w.key("epoch")
            w.object { w in
                w.key("jdTDB"); w.number(e.epochJDTDB)
                w.key("date"); w.string(TimeScale.instant(tdbSecondsPastJ2000: (e.epochJDTDB - Constants.jdJ2000) * Constants.secondsPerDay).iso8601)
            }
            w.key("elements")
            w.object { w in
                w.key("frame"); w.string("ecliptic-j2000 heliocentric osculating")
                w.key("perihelionDistanceAU"); w.number(e.perihelionAU)
                w.key("eccentricity"); w.number(e.eccentricity)
                w.key("inclinationDeg"); w.number(e.inclinationDeg)
                w.key("ascendingNodeDeg"); w.number(e.ascendingNodeDeg)
                w.key("argumentOfPerihelionDeg"); w.number(e.argumentOfPerihelionDeg)
                w.key("perihelionJDTDB"); w.number(e.perihelionJDTDB)
                w.key("meanAnomalyDeg"); if let m = e.meanAnomalyDeg { w.number(m) } else { w.null() }
                w.key("semiMajorAxisAU"); if e.eccentricity < 1 { w.number(e.semiMajorAxisAU) } else { w.null() }
                w.key("periodDays"); if let p = e.periodDays { w.number(p) } else { w.null() }
            }
            w.key("brightness")
            switch b.brightness {
            case let .asteroid(hMag, g)?:
                w.object { w in w.key("law"); w.string("H-G"); w.key("h"); w.number(hMag); w.key("g"); w.number(g) }
            case let .comet(m1, k1)?:
                w.object { w in w.key("law"); w.string("M1-K1"); w.key("m1"); w.number(m1); w.key("k1"); w.number(k1) }
            case nil:
                w.null()
            }
            w.key("nonGravitational")
            if let ng = b.nonGravitational {
                w.object { w in
                    w.key("a1AUPerDay2"); w.number(ng.a1)
                    w.key("a2AUPerDay2"); w.number(ng.a2)
                    w.key("a3AUPerDay2"); w.number(ng.a3)
                    w.key("dtDays"); w.number(ng.dtDays)
                    w.key("gOfR")
                    w.object { w in
                        w.key("alpha"); w.number(ng.law.alpha)
                        w.key("r0AU"); w.number(ng.law.r0AU)
                        w.key("m"); w.number(ng.law.m)
                        w.key("n"); w.number(ng.law.n)
                        w.key("k"); w.number(ng.law.k)
                    }
                }
            } else {
                w.null()
            }
            w.key("source")
            w.object { w in
                w.key("file"); w.string(b.source.file)
                w.key("format"); w.string(b.source.format.rawValue)
                w.key(b.source.format == .sbdbJSON ? "record" : "line"); w.int(b.source.line)
                w.key("solution"); if let s = b.solution { w.string(s) } else { w.null() }
            }
            w.key("trustedSpan")
            if let span = current.propagator.trustedSpan(b) {
                w.array { w in
                    w.string(TimeScale.instant(tdbSecondsPastJ2000: span.lowerBound).iso8601)
                    w.string(TimeScale.instant(tdbSecondsPastJ2000: span.upperBound).iso8601)
                }
            } else {
                w.null()
            }
        }
    }

    /// `{body, center, dateTDB, jdTDB, date (UTC), jdUTC, distanceAU, distanceKm, relativeSpeedKmS, vInfinityKmS}`.
    static func write(_ a: CloseApproach, body: String, into w: inout JSONWriter) {
        let t = TimeScale.instant(tdbSecondsPastJ2000: a.seconds)
        let jdTDB = Constants.jdJ2000 + a.seconds / Constants.secondsPerDay
        w.object { w in
            w.key("body"); w.string(body)
            w.key("center"); w.string(a.center.rawValue)
            w.key("dateTDB"); w.string(CivilDateTime(julianDay: jdTDB).iso8601)
            w.key("jdTDB"); w.number(jdTDB)
            w.key("date"); w.string(writingASCII: { t.utc.appendISO8601(to: &$0) })
            w.key("jdUTC"); w.number(t.jdUTC)
            w.key("distanceAU"); w.number(a.distanceKm / Constants.auKm)
            w.key("distanceKm"); w.number(a.distanceKm)
            w.key("relativeSpeedKmS"); w.number(a.relativeSpeedKmS)
            w.key("vInfinityKmS"); w.number(a.vInfinityKmS)
        }
    }
}
