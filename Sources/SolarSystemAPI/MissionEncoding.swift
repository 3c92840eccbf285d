import Ephemeris
import Missions
import MissionScene

/// JSON bodies of the mission endpoints and of the stream's events (one encoder for both, so a
/// stream's `telemetry` data is exactly what `/telemetry` answers).
enum MissionEncoding {
    /// The members the list and the detail share (inside an open object).
    static func identity(_ m: Mission, into w: inout JSONWriter) {
        w.key("id"); w.string(m.id)
        w.key("name"); w.string(m.name)
        w.key("subtitle"); w.string(m.subtitle)
        w.key("launchDate"); w.string(m.launch.iso8601)
        w.key("end"); w.optionalString(m.end?.iso8601)
        w.key("ongoing"); w.bool(m.isOngoing)
        w.key("durationHours"); w.number(m.durationHours)
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

    /// `/v1/missions/{id}`: `replayEndHours` is where a replay stops now (a mission that flies
    /// on: the present, so the caller must not keep the answer).
    static func detail(_ engine: MissionEngine, replayEndHours: Double, dataHash: String, into w: inout JSONWriter) {
        let m = engine.mission
        w.object { w in
            identity(m, into: &w)
            w.key("replayEndHours"); w.number(replayEndHours)
            w.key("units"); w.string(m.referenceFrame.unit.lowercased())
            w.key("labelWindowHours"); w.number(m.labelWindowHours)
            w.key("dataHash"); w.string(dataHash)
            w.key("trajectorySummary"); w.string(m.trajectorySummary)
            w.key("kernels"); w.array { w in for k in m.kernels { w.string(k) } }
            w.key("vehicles")
            w.array { w in
                for track in engine.tracks {
                    let v = track.vehicle
                    w.object { w in
                        w.key("id"); w.string(v.id)
                        w.key("name"); w.string(v.name)
                        w.key("naifId"); w.int(v.naifID)
                        w.key("body"); w.string("naif:\(v.naifID)")
                        w.key("primary"); w.bool(v.primary)
                        w.key("colorRgb"); w.numbers(v.color.array)
                        w.key("startHours"); w.number(v.startHours)
                        w.key("endHours"); if let e = v.endHours { w.number(e) } else { w.null() }
                        w.key("dataEndHours"); w.number(track.dataEndHours)
                        w.key("extrapolateAbout"); w.optionalString(v.extrapolation.map(Self.centerName))
                        w.key("plannedFromHours"); if let p = v.plannedFromHours { w.number(p) } else { w.null() }
                        w.key("phases")
                        w.array { w in
                            for p in v.phases {
                                w.object { w in
                                    w.key("name"); w.string(p.name)
                                    w.key("kind"); w.string(p.kind.rawValue)
                                    w.key("startHours"); w.number(p.startHours)
                                    w.key("endHours"); w.number(p.endHours)
                                    w.key("body"); w.optionalString(p.body?.rawValue)
                                    w.key("source"); w.optionalString(p.source)
                                }
                            }
                        }
                    }
                }
            }
            w.key("events"); w.array { w in for e in m.events { event(e, into: &w) } }
        }
    }

    static func centerName(_ c: ExtrapolationCenter) -> String {
        switch c {
        case .solarSystemBarycenter: "ssb"
        case let .body(b): b.rawValue
        }
    }

    static func event(_ e: MissionEvent, into w: inout JSONWriter) {
        w.object { w in
            w.key("t"); w.number(e.timeHours)
            w.key("date"); w.string(e.date.iso8601)
            w.key("key"); w.optionalString(e.key)
            w.key("name"); w.string(e.name)
            w.key("detail"); w.string(e.detail)
            w.key("showLabel"); w.bool(e.showLabel)
            w.key("fact")
            if let f = e.fact {
                w.object { w in
                    w.key("body"); w.optionalString(f.body?.rawValue)
                    w.key("distanceKm"); if let v = f.distanceKm { w.number(v) } else { w.null() }
                    w.key("altitudeKm"); if let v = f.altitudeKm { w.number(v) } else { w.null() }
                    w.key("speedKmS"); if let v = f.speedKmS { w.number(v) } else { w.null() }
                    w.key("source"); w.string(f.source)
                    w.key("note"); w.string(f.note)
                }
            } else {
                w.null()
            }
        }
    }

    static func optionalEvent(_ e: MissionEvent?, into w: inout JSONWriter) {
        if let e { event(e, into: &w) } else { w.null() }
    }

    /// `scene` places each vehicle's marker (`scenePosition`).
    static func telemetry(_ t: MissionTelemetry, scene: MissionScene, into w: inout JSONWriter) {
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
                        w.key("phase"); w.string(v.phase)
                        w.key("phaseKind"); w.string(v.phaseKind.rawValue)
                        w.key("frame"); w.string(v.frame.rawValue)
                        w.key("position"); w.numbers(v.position.array)
                        w.key("velocityKmS"); w.numbers(v.velocityKmS.array)
                        w.key("scenePosition"); w.numbers(scene.scenePosition(v.state, planetsAU: t.planetsAU).array)
                        w.key("distanceKm"); w.number(v.distanceKm)
                        w.key("distanceAU"); w.number(v.distanceAU)
                        w.key("speedKmS"); w.number(v.speedKmS)
                        w.key("nearestBody")
                        w.object { w in
                            w.key("id"); w.string(v.nearest.body.rawValue)
                            w.key("distanceKm"); w.number(v.nearest.distanceKm)
                            w.key("altitudeKm"); w.number(v.nearest.altitudeKm)
                            w.key("speedKmS"); w.number(v.nearest.speedKmS)
                        }
                        w.key("lightTimeToEarthS"); w.number(v.lightTimeToEarthSeconds)
                        w.key("source"); w.string(v.source)
                        w.key("extrapolated"); w.bool(v.extrapolated)
                        w.key("planned"); w.bool(v.state.planned)
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

    static func trajectory(_ scene: MissionScene, vehicles: [VehicleTrack], lines: [[TrajectorySample]], count: Int,
                           frame: TrajectoryFrame, into w: inout JSONWriter) {
        let m = scene.mission
        let unit = frame == .scene ? "scene" : m.referenceFrame.unit
        let digits = decimals(unit: unit)
        w.object { w in
            w.key("mission"); w.string(m.id)
            w.key("frame"); w.string(frame == .scene ? "scene" : "ecliptic-j2000")
            w.key("referenceFrame"); w.string(m.referenceFrame.rawValue)
            w.key("units"); w.string(unit.lowercased())
            w.key("sceneOrigin"); w.optionalString(frame == .scene ? scene.sceneOrigin.rawValue : nil)
            w.key("count"); w.int(count)
            w.key("vehicles")
            w.array { w in
                for (track, samples) in zip(vehicles, lines) {
                    w.object { w in
                        w.key("id"); w.string(track.vehicle.id)
                        w.key("name"); w.string(track.vehicle.name)
                        w.key("primary"); w.bool(track.vehicle.primary)
                        w.key("colorRgb"); w.numbers(track.vehicle.color.array)
                        w.key("dataEndHours"); w.number(track.dataEndHours)
                        w.key("orbits")
                        w.array { w in
                            for o in scene.engine.orbitSpans(track) {
                                w.object { w in
                                    w.key("body"); w.string(o.body.rawValue)
                                    w.key("startHours"); w.number(o.hours.lowerBound)
                                    w.key("endHours"); w.number(o.hours.upperBound)
                                }
                            }
                        }
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
