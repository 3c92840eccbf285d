import Ephemeris
import Scene

/// `/v1/bodies` entries: physical data, scene radius, colour, rings, family, rotation model and
/// the ephemeris theory with its tested accuracy and the spans each theory serves.
enum BodiesEncoding {
    static func write(_ id: BodyID, services: APIServices, into w: inout JSONWriter) {
        let e = services.catalogue[id]
        let model = services.ephemeris.modelInfo(id)
        w.object { w in
            w.key("id"); w.string(id.rawValue)
            w.key("name"); w.string(e.name)
            w.key("type"); w.string(e.type.rawValue)
            w.key("parent"); w.optionalString(e.parent?.rawValue)
            w.key("moons"); w.array { w in for m in e.moons { w.string(m.rawValue) } }
            w.key("radiusKm"); w.number(e.radiusKm)
            w.key("sceneRadius"); w.number(services.layout.radii[id.index], decimals: 6)
            w.key("colorRgb"); w.numbers(e.colorRGB)
            w.key("emissive"); w.bool(e.emissive)
            w.key("rings")
            if let r = e.rings {
                let scale = services.layout.radii[id.index] / e.radiusKm
                w.object { w in
                    w.key("innerRadiusKm"); w.number(r.innerRadiusKm)
                    w.key("outerRadiusKm"); w.number(r.outerRadiusKm)
                    w.key("innerSceneRadius"); w.number(r.innerRadiusKm * scale, decimals: 6)
                    w.key("outerSceneRadius"); w.number(r.outerRadiusKm * scale, decimals: 6)
                    w.key("plane"); w.string("equator")
                }
            } else {
                w.null()
            }
            if let orbit = e.seedMeanOrbit {
                w.key("orbit")
                w.object { w in
                    w.key("semiMajorAxisKm"); w.number(orbit.semiMajorAxisKm)
                    w.key("periodDays"); w.number(orbit.periodDays)
                    w.key("sceneDistance"); w.number(services.layout.moonDistances[id.index], decimals: 6)
                }
            }
            w.key("rotation")
            w.object { w in
                w.key("model"); w.string(model.rotation.rawValue)
                if let iau = services.ephemeris.iauElements(id) {
                    w.key("poleRaDeg"); w.numbers([iau.poleRADeg.value, iau.poleRADeg.ratePerCentury])
                    w.key("poleDecDeg"); w.numbers([iau.poleDecDeg.value, iau.poleDecDeg.ratePerCentury])
                    w.key("primeMeridianDeg"); w.numbers([iau.primeMeridianDeg, iau.primeMeridianRateDegPerDay])
                    w.key("periodicTerms"); w.bool(IAUPeriodicTerms.forBody(id) != nil)
                    w.key("units"); w.string("[value at J2000, rate per Julian century] for the pole; [W0, degrees per day] for the prime meridian; TDB")
                }
                w.key("periodHours"); w.number(abs(e.seedRotation.periodHours))
                w.key("retrograde"); w.bool(e.seedRotation.periodHours < 0)
                w.key("tidallyLocked"); w.bool(e.seedRotation.tidallyLocked)
            }
            w.key("ephemeris")
            w.object { w in
                w.key("theory"); w.string(model.theory)
                w.key("accuracy"); w.string(model.accuracy)
                w.key("validity"); w.string(model.validity)
                w.key("theories")
                w.array { w in
                    for span in services.ephemeris.theorySpans(id) {
                        w.object { w in
                            w.key("theory"); w.string(span.name)
                            w.key("validJdTDB"); w.numbers([span.jdTDB.lowerBound, span.jdTDB.upperBound])
                        }
                    }
                }
            }
        }
    }
}
