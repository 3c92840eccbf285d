import Astrodynamics
import Ephemeris
import Missions

/// The recipe of every mission the server ships, by mission id.
public enum MissionRecipes {
    public static var all: [any MissionRecipe] { [
        ArtemisRecipe(),
        LunarRecipe(missionID: "apollo8", vehicleID: "apollo8_csm", pad: .lc39A, objective: .orbit(inclinationDeg: 12), lander: nil,
                    splashdown: SurfaceSite(body: .earth, latitudeDeg: 8.133, longitudeDeg: -165.017)),
        LunarRecipe(missionID: "apollo11", vehicleID: "csm_columbia", pad: .lc39A, objective: .orbit(inclinationDeg: 0),
                    lander: .init(vehicleID: "lm_eagle", site: SurfaceSite(body: .moon, latitudeDeg: 0.674_08, longitudeDeg: 23.472_97),
                                  descentPeriluneKm: 15, doiPhase: "descent orbit insertion"),
                    splashdown: SurfaceSite(body: .earth, latitudeDeg: 13.317, longitudeDeg: -169.15)),
        LunarRecipe(missionID: "apollo13", vehicleID: "odyssey_aquarius", pad: .lc39A, objective: .flyby(returnBurn: "PC+2 burn"), lander: nil,
                    splashdown: SurfaceSite(body: .earth, latitudeDeg: -21.64, longitudeDeg: -165.361_67)),
        HorizonsRecipe(missionID: "cassini", vehicleID: "cassini", files: [("horizons-cassini_1d.json", "1-day")], pad: .slc40, fitsMoons: true),
        HorizonsRecipe(missionID: "voyager1", vehicleID: "voyager1", files: [
            ("horizons-voyager1_1d.json", "1-day"), ("horizons-voyager1_jupiter_30m.json", "30-min"), ("horizons-voyager1_saturn_30m.json", "30-min"),
        ], pad: .slc41, reanchor: [(.jupiter, "jupiter"), (.saturn, "saturn")], fitsMoons: true, fitsEncounterArcs: true),
        HorizonsRecipe(missionID: "voyager2", vehicleID: "voyager2", files: [
            ("horizons-voyager2_1d.json", "1-day"), ("horizons-voyager2_jupiter_30m.json", "30-min"), ("horizons-voyager2_saturn_30m.json", "30-min"),
            ("horizons-voyager2_uranus_30m.json", "30-min"), ("horizons-voyager2_neptune_30m.json", "30-min"),
        ], pad: .slc41, reanchor: [(.jupiter, "jupiter"), (.saturn, "saturn"), (.uranus, "uranus"), (.neptune, "neptune")], fitsMoons: true, fitsEncounterArcs: true),
        HorizonsRecipe(missionID: "juno", vehicleID: "juno", files: [
            ("horizons-juno_1d.json", "1-day"), ("horizons-juno_earth_ga_10m.json", "10-min"), ("horizons-juno_jupiter_orbit_insertion_10m.json", "10-min"),
        ], pad: .slc41, reanchor: [(.earth, "earth")], fitsMoons: true, burnArcs: [(.jupiter, "Jupiter orbit insertion")]),
        HorizonsRecipe(missionID: "osirisrex", vehicleID: "osirisrex", files: [
            ("horizons-osiris_1d.json", "1-day"), ("horizons-osiris_launch_10m.json", "10-min"), ("horizons-osiris_earth_flyby_10m.json", "10-min"),
            ("horizons-osiris_tag_1m.json", "1-min"), ("horizons-osiris_sample_return_10m.json", "10-min"),
        ], pad: .slc41, reanchor: [(.earth, "earth"), (.earth, "src-release")],
            burnArcs: [(.earth, "launch and injection"), (.earth, "divert manoeuvre")]),
        PerseveranceRecipe(),
        // Mars orbiters: the cruise and orbit insertion integrated between samples like the
        // others; in orbit, the daily samples about Mars as they are (the server integrates).
        HorizonsRecipe(missionID: "mro", vehicleID: "mro", files: [
            ("horizons-mro_1d.json", "1-day"), ("horizons-mro_mars_orbit_insertion_10m.json", "10-min"),
            ("horizons-mro_aerobraking_end_10m.json", "10-min"), ("horizons-mro_first_mapping_orbit_10m.json", "10-min"),
        ], pad: .slc41, orbit: (.mars, "Mars orbit insertion")),
        HorizonsRecipe(missionID: "maven", vehicleID: "maven", files: [
            ("horizons-maven_1d.json", "1-day"), ("horizons-maven_mars_orbit_insertion_10m.json", "10-min"),
            ("horizons-maven_siding_spring_10m.json", "10-min"),
        ], pad: .slc41, orbit: (.mars, "Mars orbit insertion")),
        HorizonsRecipe(missionID: "marsodyssey", vehicleID: "marsodyssey", files: [
            ("horizons-mars_odyssey_1d.json", "1-day"), ("horizons-mars_odyssey_moi_10m.json", "10-min"),
            ("horizons-mars_odyssey_themis_first_light_10m.json", "10-min"),
        ], pad: .slc17A, orbit: (.mars, "Mars orbit insertion")),
        // No trajectory data: patched conics between the published flybys, to the end of the
        // repository's other data (the JPL Horizons files end 2026-01-28).
        FlybyRecipe(missionID: "newhorizons", vehicleID: "newhorizons", pad: .slc41, stops: [
            .flyby(event: "jupiter"), .flyby(event: "pluto"),
        ], endUTC: "2026-01-28T00:00:00Z"),
        FlybyRecipe(missionID: "parker", vehicleID: "parker", pad: .slc37B, stops: [
            .flyby(event: "vga1"),
        ] + ["vga2", "vga3", "vga4", "vga5", "vga6", "vga7"].map { .flyby(event: $0, leg: FlybyPlan.Leg(revolutions: .leastDeltaV(maxRevolutions: 5))) },
                    endUTC: "2026-01-28T00:00:00Z", endTurn: .decelerate, endPerihelion: "p22"),
        FlybyRecipe(missionID: "bepicolombo", vehicleID: "bepicolombo", pad: .ela3, stops: [
            .flyby(event: "earth", leg: FlybyPlan.Leg(revolutions: .leastDeltaV(maxRevolutions: 2))),
            .data(kernel: "naif/bc_mpo_fcp_Venus1SwingbyMTP_v01.bsp", label: "ESA bc_mpo_fcp Venus-1 (-121)", short: "ESA Venus-1 data", event: "venus1"),
        ] + ["venus2", "mercury1", "mercury2", "mercury3", "mercury4", "mercury5", "mercury6"].map {
            .flyby(event: $0, leg: FlybyPlan.Leg(revolutions: .leastDeltaV(maxRevolutions: 4)))
        }, endUTC: "2026-12-15T00:00:00Z", endTurn: .decelerate, correction: ("SEP", "solar-electric thrust (modelled as an impulse)"), freeImpulseTimes: true,
           // The plan after the last flyby (ESA's fact sheet: Mio 590 x 11,640 km, the MPO 480 x
           // 1,500 km, both polar); the approach's excess over escape is the model's choice.
           arrival: FlybyRecipe.Arrival(body: .mercury, thrustEnd: "sep-end", insertion: "moi", release: "mio-release",
                                        captureOrbit: .init(periapsisKm: 590, apoapsisKm: 11_640), finalOrbit: .init(periapsisKm: 480, apoapsisKm: 1_500),
                                        approachVInfinityKmS: 0.3)),
    ] }

    public static func recipe(_ id: String) -> (any MissionRecipe)? { all.first { $0.missionID == id } }
}
