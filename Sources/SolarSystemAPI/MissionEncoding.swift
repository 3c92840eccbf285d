import Ephemeris
import Missions

/// JSON bodies of the mission endpoints and of the stream's events (one encoder for both, so a
/// stream's `telemetry` data is exactly what `/telemetry` answers).
enum MissionEncoding {
    /// The members the list and the detail share (inside an open object).
    static func identity(_ m: Mission, into w: inout JSONWriter) {
        w.key("id"); w.string(m.id)
        w.key("name"); w.string(m.name)
        w.key("subtitle"); w.string(m.subtitle)
        w.key("launchDate"); w.string(m.launch.iso8601)
        w.key("durationHours"); w.number(m.durationHours)
        w.key("replayEndHours"); w.number(m.replayEndHours)
        w.key("referenceFrame"); w.string(m.referenceFrame.rawValue)
        w.key("autoTimeScale"); w.number(m.autoTimeScale)
    }

    static func summary(_ m: Mission, into w: inout JSONWriter) {
        w.object { w in
            identity(m, into: &w)
            w.key("eventCount"); w.int(m.events.count)
            w.key("vehicles"); w.array { w in for v in m.vehicles { w.string(v.id) } }
        }
    }

    static func detail(_ engine: MissionEngine, into w: inout JSONWriter) {
        let m = engine.mission
        w.object { w in
            identity(m, into: &w)
            w.key("flybyTimeHours"); if let f = m.flybyTimeHours { w.number(f) } else { w.null() }
            w.key("units"); w.string(m.referenceFrame.unit.lowercased())
            w.key("autoTrajectory"); w.optionalString(m.autoTrajectory?.rawValue)
            w.key("labelWindowHours"); w.number(m.labelWindowHours)
            w.key("dataHash"); w.string(m.dataHash)
            w.key("vehicles")
            w.array { w in
                for rv in engine.vehicles {
                    let v = rv.vehicle
                    w.object { w in
                        w.key("id"); w.string(v.id)
                        w.key("name"); w.string(v.name)
                        w.key("primary"); w.bool(v.primary)
                        w.key("colorRgb"); w.numbers(v.color.array)
                        w.key("startHours"); w.number(rv.spanHours.lowerBound)
                        w.key("endHours"); w.number(rv.spanHours.upperBound)
                        w.key("waypoints"); w.int(v.waypoints.count)
                        w.key("phases")
                        w.object { w in
                            func window(_ key: String, _ range: (Double, Double)?) {
                                w.key(key)
                                if let (a, b) = range { w.object { w in w.key("startHours"); w.number(a); w.key("endHours"); w.number(b) } } else { w.null() }
                            }
                            window("moonOrbit", v.moonOrbit.map { ($0.startHours, $0.endHours) })
                            window("moonLanding", v.moonLanding.map { ($0.startHours, $0.endHours) })
                            window("moonOrbitReturn", v.moonOrbitReturn.map { ($0.startHours, $0.endHours) })
                        }
                    }
                }
            }
            w.key("events"); w.array { w in for e in m.events { event(e, into: &w) } }
        }
    }

    static func event(_ e: MissionEvent, into w: inout JSONWriter) {
        w.object { w in
            w.key("t"); w.number(e.timeHours)
            w.key("name"); w.string(e.name)
            w.key("detail"); w.string(e.detail)
            w.key("showLabel"); w.bool(e.showLabel)
        }
    }

    static func optionalEvent(_ e: MissionEvent?, into w: inout JSONWriter) {
        if let e { event(e, into: &w) } else { w.null() }
    }

    static func telemetry(_ t: MissionTelemetry, into w: inout JSONWriter) {
        w.object { w in
            w.key("mission"); w.string(t.missionID)
            w.key("t"); w.number(t.timeHours)
            w.key("date"); w.string(t.date)
            w.key("met"); w.string(t.met)
            w.key("vehicles")
            w.array { w in
                for v in t.vehicles {
                    w.object { w in
                        w.key("id"); w.string(v.id)
                        w.key("name"); w.string(v.name)
                        w.key("primary"); w.bool(v.primary)
                        w.key("phase"); w.string(v.phase.rawValue)
                        w.key("frame"); w.string(v.frame.rawValue)
                        w.key("position"); w.numbers(v.position.array)
                        w.key("scenePosition"); w.numbers(v.scenePosition.array)
                        w.key("distanceKm"); w.number(v.distanceKm)
                        w.key("distanceAU"); w.number(v.distanceAU)
                        w.key("speedKmS"); w.number(v.speedKmS)
                        w.key("moonDistanceKm"); if let m = v.moon { w.number(m.distanceKm) } else { w.null() }
                        w.key("altitudeKm"); if let m = v.moon { w.number(m.altitudeKm) } else { w.null() }
                        w.key("moonSpeedKmS"); if let m = v.moon { w.number(m.speedKmS) } else { w.null() }
                    }
                }
            }
            w.key("lastEvent"); optionalEvent(t.lastEvent, into: &w)
            w.key("nextEvent"); optionalEvent(t.nextEvent, into: &w)
            w.key("visibleLabels"); w.array { w in for e in t.visibleLabels { event(e, into: &w) } }
        }
    }

    /// Decimals per unit: km to the metre, AU to ~15 m, scene units to 1e-6.
    static func decimals(unit: String) -> Int {
        switch unit {
        case "km": 3
        case "AU": 10
        default: 6
        }
    }

    static func trajectory(_ engine: MissionEngine, vehicles: [ResolvedVehicle], lines: [[TrajectorySample]], count: Int,
                           frame: TrajectoryFrame, into w: inout JSONWriter) {
        let m = engine.mission
        let unit = frame == .scene ? "scene" : m.referenceFrame.unit
        let digits = decimals(unit: unit)
        w.object { w in
            w.key("mission"); w.string(m.id)
            w.key("frame"); w.string(frame == .scene ? "scene" : "ecliptic-j2000")
            w.key("referenceFrame"); w.string(m.referenceFrame.rawValue)
            w.key("units"); w.string(unit.lowercased())
            w.key("sceneOrigin"); w.optionalString(frame == .scene ? engine.sceneOrigin.rawValue : nil)
            w.key("count"); w.int(count)
            w.key("vehicles")
            w.array { w in
                for (rv, samples) in zip(vehicles, lines) {
                    w.object { w in
                        w.key("id"); w.string(rv.vehicle.id)
                        w.key("name"); w.string(rv.vehicle.name)
                        w.key("primary"); w.bool(rv.vehicle.primary)
                        w.key("colorRgb"); w.numbers(rv.vehicle.color.array)
                        w.key("times"); w.array { w in for s in samples { w.fixed(s.timeHours, decimals: 6) } }
                        w.key("positions"); w.array { w in for s in samples { w.fixed(s.position, decimals: digits) } }
                        w.key("colors")
                        w.array { w in
                            for s in samples {
                                w.array { w in
                                    w.fixed(s.color.r, decimals: 4)
                                    w.fixed(s.color.g, decimals: 4)
                                    w.fixed(s.color.b, decimals: 4)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
