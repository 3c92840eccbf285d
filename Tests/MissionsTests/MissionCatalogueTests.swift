import Foundation
import Testing
import Ephemeris
@testable import Missions

@Suite("Mission catalogue: missions.json v2, decoded and validated")
struct MissionCatalogueTests {
    static let catalogue = ServedMissions.catalogue

    // MARK: - The shipped file

    @Test("the shipped file loads without warnings, every mission with kernels, a summary and events from launch")
    func shippedFile() throws {
        let c = Self.catalogue
        #expect(c.warnings.isEmpty, "\(c.warnings)")
        #expect(Set(c.ids) == ["artemis2", "apollo8", "apollo11", "apollo13", "cassini", "voyager1", "voyager2", "juno", "osirisrex",
                                "newhorizons", "parker", "bepicolombo", "perseverance", "mro", "maven", "marsodyssey"])
        let geocentric = c.missions.filter { $0.referenceFrame == .geocentric }.map(\.id)
        #expect(Set(geocentric) == ["artemis2", "apollo8", "apollo11", "apollo13"])
        let ongoing = c.missions.filter(\.isOngoing).map(\.id)
        #expect(Set(ongoing) == ["voyager1", "voyager2", "juno", "osirisrex", "newhorizons", "parker", "bepicolombo", "mro", "maven", "marsodyssey"])
        for m in c.missions {
            #expect(!m.kernels.isEmpty && m.kernels.allSatisfy { $0.hasSuffix(".bsp") }, "\(m.id)")
            #expect(m.trajectorySummary.count > 40, "\(m.id): a sentence or two on where the trajectory comes from")
            #expect(!m.events.isEmpty, "\(m.id)")
            // Events in time order, numbered in that order, the first the launch itself.
            #expect(zip(m.events, m.events.dropFirst()).allSatisfy { $0.timeHours <= $1.timeHours }, "\(m.id)")
            #expect(m.events.map(\.index) == Array(m.events.indices), "\(m.id)")
            #expect(m.events.first?.key == "launch" && m.events.first?.timeHours == 0, "\(m.id)")
            if let end = m.endHours { #expect(m.events.allSatisfy { $0.timeHours <= end + 1e-9 }, "\(m.id): an event after the end") }
            let keys = m.events.compactMap(\.key)
            #expect(Set(keys).count == keys.count, "\(m.id)")
            #expect(m.primaryVehicle?.primary == true, "\(m.id)")
        }
        // Launch and end as written (UTC), counted in hours: Apollo 11 splashed down at GET 195:18:35.
        let apollo11 = TestMissions.mission("apollo11")
        #expect(apollo11.launchDate == "1969-07-16T13:32:00Z")
        // Mission time is TT: before 1972 ΔT drifts a few milliseconds in eight days.
        let splashdown: Double = 195 + 18.0 / 60 + 35.0 / 3600
        let endHours = try #require(apollo11.endHours)
        #expect(abs(endHours - splashdown) < 1e-5)
        #expect(apollo11.vehicles.map(\.id) == ["csm_columbia", "lm_eagle"] && apollo11.primaryVehicle?.id == "csm_columbia")
    }

    @Test("every event that states a distance, altitude or speed says where it comes from and from which body")
    func factsHaveSources() throws {
        var facts = 0
        for m in Self.catalogue.missions {
            for e in m.events {
                guard let f = e.fact, f.distanceKm != nil || f.altitudeKm != nil || f.speedKmS != nil else { continue }
                facts += 1
                #expect(f.source.trimmingCharacters(in: .whitespaces).count > 5, "\(m.id)/\(e.name)")
                if f.distanceKm != nil || f.altitudeKm != nil { #expect(f.body != nil, "\(m.id)/\(e.name)") }
            }
            // Date-only events resolved from the trajectory measure from a body.
            for e in m.events where e.timeFromClosestApproach { #expect(e.fact?.body != nil, "\(m.id)/\(e.name)") }
        }
        #expect(facts > 50)
        let neptune = try #require(TestMissions.mission("voyager2").events.first { $0.key == "neptune" }?.fact)
        #expect(neptune.body == .neptune && neptune.distanceKm == 29_240 && neptune.speedKmS == 27.3 && neptune.source.contains("JPL"))
    }

    @Test("phases lie in time order inside their vehicle's span; landed phases name their body")
    func phases() {
        var landed: [String] = []
        for m in Self.catalogue.missions {
            for v in m.vehicles {
                let label = "\(m.id)/\(v.id)"
                #expect(!v.phases.isEmpty, "\(label)")
                #expect(v.endHours != nil || v.extrapolation != nil, "\(label): a vehicle that flies on needs its extrapolation")
                #expect((v.endHours == nil) == m.isOngoing, "\(label)")
                for p in v.phases {
                    #expect(p.startHours < p.endHours, "\(label) \(p.name)")
                    // A millisecond's slack: hours from dates that are equal as written.
                    #expect(p.startHours >= v.startHours - 1e-6, "\(label) \(p.name) starts before the vehicle")
                    if let end = v.endHours { #expect(p.endHours <= end + 1e-6, "\(label) \(p.name) ends after the vehicle") }
                    if p.kind == .landed {
                        #expect(p.body != nil, "\(label) \(p.name)")
                        landed.append("\(label)@\(p.body?.rawValue ?? "?")")
                    }
                }
                #expect(zip(v.phases, v.phases.dropFirst()).allSatisfy { $0.endHours <= $1.startHours }, "\(label): phases overlap")
            }
        }
        #expect(Set(landed) == ["apollo11/lm_eagle@moon", "perseverance/perseverance@mars"])
        // Eagle: undocked 100:12 GET, docked again 128:03 GET; on the Moon 102:45:39 – 124:22.
        let eagle = TestMissions.mission("apollo11").vehicle("lm_eagle")
        #expect(abs((eagle?.startHours ?? 0) - 100.2) < 1e-4 && abs((eagle?.endHours ?? 0) - 128.05) < 1e-4)
        let surface = eagle?.phases.first { $0.kind == .landed }
        #expect(abs((surface?.startHours ?? 0) - (102 + 45.0 / 60 + 39.0 / 3600)) < 1e-4 && abs((surface?.endHours ?? 0) - (124 + 22.0 / 60)) < 1e-4)
        #expect(surface?.name == "on the Moon")
    }

    // MARK: - Errors

    /// A malformed variant of the shipped file and what the error must say.
    struct BadEdit: Sendable, CustomTestStringConvertible {
        let what: String
        let mission: String
        let field: String
        let problem: String
        let apply: @Sendable (inout [String: Any]) -> Void

        init(_ what: String, _ mission: String, field: String, problem: String, _ apply: @escaping @Sendable (inout [String: Any]) -> Void) {
            self.what = what
            self.mission = mission
            self.field = field
            self.problem = problem
            self.apply = apply
        }

        var testDescription: String { what }
    }

    static let set = JSONEdit.set

    static let badEdits: [BadEdit] = [
        // Decoding: the mission and the path of the field, whatever the depth.
        BadEdit("missing field", "apollo11", field: "launchDate", problem: "missing", set(["launchDate"], nil)),
        BadEdit("missing nested field", "cassini", field: "vehicles[0].phases[2].kind", problem: "missing", set(["vehicles", 0, "phases", 2, "kind"], nil)),
        BadEdit("missing fact source", "voyager2", field: "events[4].fact.source", problem: "missing", set(["events", 4, "fact", "source"], nil)),
        BadEdit("wrong type", "apollo13", field: "vehicles[0].naifId", problem: "wrong type: expected a number", set(["vehicles", 0, "naifId"], "minus one")),
        BadEdit("wrong type of a fact figure", "voyager1", field: "events[1].fact.distanceKm", problem: "expected a number",
                set(["events", 1, "fact", "distanceKm"], "close")),
        BadEdit("an object for an array", "artemis2", field: "events", problem: "expected an array", set(["events"], "many")),
        BadEdit("null for a required field", "juno", field: "name", problem: "is null", set(["name"], .null)),
        // Mission level.
        BadEdit("unknown frame", "voyager1", field: "referenceFrame", problem: "galactocentric", set(["referenceFrame"], "galactocentric")),
        BadEdit("launch not a date", "parker", field: "launchDate", problem: "yesterday", set(["launchDate"], "yesterday")),
        BadEdit("end not a date", "apollo8", field: "end", problem: "soon", set(["end"], "soon")),
        BadEdit("end before launch", "apollo8", field: "end", problem: "after launchDate", set(["end"], "1968-12-21T12:00:00Z")),
        BadEdit("no kernels", "cassini", field: "kernels", problem: "SPK", set(["kernels"], [])),
        BadEdit("kernel outside the directory", "cassini", field: "kernels[0]", problem: "inside", set(["kernels", 0], "../secret.bsp")),
        BadEdit("kernel by absolute path", "cassini", field: "kernels[0]", problem: "inside", set(["kernels", 0], "/etc/cassini.bsp")),
        BadEdit("kernel not an SPK file", "cassini", field: "kernels[0]", problem: ".bsp", set(["kernels", 0], "cassini.txt")),
        // Events.
        BadEdit("event without a name", "apollo11", field: "events[3].name", problem: "empty", set(["events", 3, "name"], "")),
        BadEdit("event date not a date", "apollo11", field: "events[3].date", problem: "not a date", set(["events", 3, "date"], "T+100:12")),
        BadEdit("event key twice", "apollo11", field: "events[4].key", problem: "unique", set(["events", 4, "key"], "undock")),
        BadEdit("unknown timeFrom", "juno", field: "events[5].timeFrom", problem: "closest-approach", set(["events", 5, "timeFrom"], "perijove")),
        BadEdit("date-only closest approach without a body", "juno", field: "events[5].timeFrom", problem: "body", set(["events", 5, "fact"], nil)),
        BadEdit("fact without a source", "voyager2", field: "events[4].fact.source", problem: "where the figures come from", set(["events", 4, "fact", "source"], "")),
        BadEdit("fact about an unknown body", "voyager2", field: "events[4].fact.body", problem: "vulcan", set(["events", 4, "fact", "body"], "vulcan")),
        BadEdit("negative distance", "voyager2", field: "events[4].fact.distanceKm", problem: "non-negative", set(["events", 4, "fact", "distanceKm"], -29_240)),
        BadEdit("distance from no body", "voyager2", field: "events[4].fact.body", problem: "body it is measured from", set(["events", 4, "fact", "body"], nil)),
        // Vehicles.
        BadEdit("no vehicles", "apollo13", field: "vehicles", problem: "at least one", set(["vehicles"], [])),
        BadEdit("vehicle id with capitals and spaces", "apollo11", field: "vehicles[1].id", problem: "lowercase", set(["vehicles", 1, "id"], "LM Eagle")),
        BadEdit("vehicle listed twice", "apollo11", field: "vehicles[1].id", problem: "twice", set(["vehicles", 1, "id"], "csm_columbia")),
        BadEdit("two components of colour", "apollo11", field: "vehicles[0].color", problem: "three numbers", set(["vehicles", 0, "color"], [1, 0.5])),
        BadEdit("colour out of range", "apollo11", field: "vehicles[0].color", problem: "0...1", set(["vehicles", 0, "color"], [1, 2, 0])),
        BadEdit("a body's NAIF id", "apollo11", field: "vehicles[1].naifId", problem: "own id", set(["vehicles", 1, "naifId"], 301)),
        BadEdit("two vehicles, one NAIF id", "apollo11", field: "vehicles", problem: "share a naifId", set(["vehicles", 1, "naifId"], -1_969_011)),
        BadEdit("vehicle start not a date", "apollo11", field: "vehicles[1].from", problem: "not a date", set(["vehicles", 1, "from"], "undocking")),
        BadEdit("vehicle ending before it starts", "apollo11", field: "vehicles[1].to", problem: "after the vehicle's start",
                set(["vehicles", 1, "to"], "1969-07-20T17:00:00Z")),
        BadEdit("ongoing vehicle without extrapolation", "voyager1", field: "vehicles[0].extrapolateAbout", problem: "ssb or a body",
                set(["vehicles", 0, "extrapolateAbout"], nil)),
        BadEdit("unknown extrapolation centre", "juno", field: "vehicles[0].extrapolateAbout", problem: "galaxy", set(["vehicles", 0, "extrapolateAbout"], "galaxy")),
        BadEdit("plan before the vehicle exists", "bepicolombo", field: "vehicles[0].plannedFrom", problem: "within the vehicle's span",
                set(["vehicles", 0, "plannedFrom"], "2010-01-01T00:00:00Z")),
        BadEdit("plan not a date", "bepicolombo", field: "vehicles[0].plannedFrom", problem: "not a date", set(["vehicles", 0, "plannedFrom"], "arrival")),
        // Phases.
        BadEdit("phase without a name", "apollo11", field: "vehicles[0].phases[3].name", problem: "empty", set(["vehicles", 0, "phases", 3, "name"], "")),
        BadEdit("unknown phase kind", "apollo11", field: "vehicles[1].phases[4].kind", problem: "expected ballistic, powered, landed",
                set(["vehicles", 1, "phases", 4, "kind"], "hovering")),
        BadEdit("phase ending before it starts", "apollo11", field: "vehicles[0].phases[0].to", problem: "after from",
                set(["vehicles", 0, "phases", 0, "to"], "1969-07-16T13:00:00Z")),
        BadEdit("phase date not a date", "apollo11", field: "vehicles[0].phases[2].from", problem: "not a date", set(["vehicles", 0, "phases", 2, "from"], "TLI")),
        BadEdit("overlapping phases", "apollo11", field: "vehicles[0].phases[1].from", problem: "overlapping",
                set(["vehicles", 0, "phases", 1, "from"], "1969-07-16T13:40:00Z")),
        BadEdit("landed without a body", "apollo11", field: "vehicles[1].phases[4].body", problem: "names the body", set(["vehicles", 1, "phases", 4, "body"], nil)),
        BadEdit("landed on an unknown body", "apollo11", field: "vehicles[1].phases[4].body", problem: "atlantis", set(["vehicles", 1, "phases", 4, "body"], "atlantis")),
    ]

    @Test("a malformed mission names the mission, the field and the problem", arguments: Self.badEdits)
    func rejects(_ edit: BadEdit) throws {
        let e = try #require(TestMissions.error(editing: edit.mission, edit.apply), "\(edit.what): loaded")
        #expect(e.mission == edit.mission, "\(e)")
        #expect(e.field == edit.field, "\(e)")
        #expect(e.problem.contains(edit.problem), "\(e)")
        #expect(e.description.contains("\"\(edit.mission)\"") && e.description.contains(edit.field))
    }

    @Test("suspicious but usable data are warnings naming the mission and the field")
    func warnings() throws {
        // An event before launch stays, at a negative time.
        let early = try TestMissions.catalogue(editing: "apollo11", JSONEdit.set(["events", 0, "date"], "1969-07-16T13:02:00Z"))
        #expect(early.warnings.map(\.field) == ["events[0].date"] && early.warnings.allSatisfy { $0.mission == "apollo11" })
        #expect(early.warnings.first?.problem.contains("before launch") == true)
        #expect(early["apollo11"]?.events.first.map { abs($0.timeHours + 0.5) < 1e-9 } == true)
        // An event after the end: the replay runs to it.
        let late = try TestMissions.catalogue(editing: "apollo11", JSONEdit.set(["events", 12, "date"], "1969-07-24T17:50:35Z"))
        #expect(late.warnings.map(\.field) == ["events[12].date"])
        let m = try #require(late["apollo11"])
        let endHours = try #require(m.endHours)
        #expect(abs(m.replayEndHours(nowHours: 0) - (endHours + 1)) < 1e-6)
        // Out of order: sorted, renumbered.
        let swapped = try TestMissions.catalogue(editing: "apollo11") { mission in
            var events = mission["events"] as! [Any]
            events.swapAt(3, 7)
            mission["events"] = events
        }
        #expect(swapped.warnings.map(\.field) == ["events"] && swapped.warnings.first?.problem.contains("sorted") == true)
        let sorted = try #require(swapped["apollo11"])
        #expect(sorted.events.map(\.key) == TestMissions.mission("apollo11").events.map(\.key))
        #expect(sorted.events.map(\.index) == Array(0..<13))
        // No primary vehicle: the first one is used.
        let none = try TestMissions.catalogue(editing: "apollo11", JSONEdit.set(["vehicles", 0, "primary"], false))
        #expect(none.warnings.map(\.field) == ["vehicles"])
        #expect(none["apollo11"]?.primaryVehicle?.id == "csm_columbia")
    }

    @Test("mission ids: a missing one is named by position, a duplicate is refused")
    func missionIDs() throws {
        var all = TestMissions.rawMissions()
        all[3]["id"] = nil
        do {
            _ = try MissionCatalogue(json: TestMissions.encode(all))
            Issue.record("a mission without an id loaded")
        } catch {
            #expect(error.mission == "#3" && error.field == "id" && error.problem.contains("missing"), "\(error)")
        }
        all = TestMissions.rawMissions()
        all[5]["id"] = all[2]["id"]
        do {
            _ = try MissionCatalogue(json: TestMissions.encode(all))
            Issue.record("a mission listed twice loaded")
        } catch {
            #expect(error.mission == all[2]["id"] as? String && error.field == "id" && error.problem.contains("twice"), "\(error)")
        }
    }

    @Test("garbage and the wrong top-level shape are file-level errors")
    func garbageAndWrongTopLevel() {
        func error(_ text: String) -> MissionDataError? {
            do {
                _ = try MissionCatalogue(json: Array(text.utf8))
                return nil
            } catch { return error }
        }
        let garbage = error("{not json")
        #expect(garbage?.mission == nil && garbage?.field == "(file)" && garbage?.problem.contains("not valid JSON") == true, "\(String(describing: garbage))")
        let object = error(#"{"missions": []}"#)
        #expect(object?.mission == nil && object?.field == "(file)" && object?.problem == "must be a JSON array of missions", "\(String(describing: object))")
        let empty = error("[]")
        #expect(empty?.mission == nil && empty?.problem == "holds no missions", "\(String(describing: empty))")
        let number = error("[42]")
        #expect(number?.mission == "#0" && number?.problem.contains("expected an object") == true, "\(String(describing: number))")
        #expect(error("") != nil)
    }

    // MARK: - Data hash

    @Test("the data hash is FNV-1a: the published test vectors")
    func fnvVectors() {
        func fnv(_ s: String) -> String {
            var h = FNV1a()
            for b in s.utf8 { h.byte(b) }
            return h.hex
        }
        #expect(fnv("") == "cbf29ce484222325")
        #expect(fnv("a") == "af63dc4c8601ec8c")
        #expect(fnv("foobar") == "85944171f73967e8")
    }

    @Test("the data hash is stable, follows the data and the kernels' identities, and nothing else")
    func dataHash() throws {
        let shipped = Self.catalogue
        // The same data written another way (keys reordered, no indentation) hashes the same.
        let rewritten = try MissionCatalogue(json: TestMissions.encode(TestMissions.rawMissions()))
        for m in shipped.missions {
            #expect(m.dataHash.count == 16 && m.dataHash.allSatisfy(\.isHexDigit))
            #expect(rewritten[m.id]?.dataHash == m.dataHash, "\(m.id)")
            #expect(m.dataHash == m.dataHash(kernels: []))
        }
        #expect(Set(shipped.missions.map(\.dataHash)).count == shipped.missions.count)
        let apollo11 = TestMissions.mission("apollo11")
        let apollo8 = TestMissions.mission("apollo8")
        // Any edit that reaches the served answers changes it, for that mission only.
        let edits: [(String, @Sendable (inout [String: Any]) -> Void)] = [
            ("a phase boundary", JSONEdit.set(["vehicles", 1, "phases", 4, "to"], "1969-07-21T17:53:59Z")),
            ("a vehicle's colour", JSONEdit.set(["vehicles", 0, "color", 2], 0.31)),
            ("a vehicle's end", JSONEdit.set(["vehicles", 1, "to"], "1969-07-21T21:36:00Z")),
            ("a fact's figure", JSONEdit.set(["events", 2, "fact", "altitudeKm"], 111)),
            ("an event's time", JSONEdit.set(["events", 7, "date"], "1969-07-21T02:56:16Z")),
            ("a kernel", JSONEdit.set(["kernels", 1], "naif/extra.bsp")),
            ("the mission's end", JSONEdit.set(["end"], "1969-07-24T16:50:36Z")),
        ]
        for (what, edit) in edits {
            let c = try TestMissions.catalogue(editing: "apollo11", edit)
            #expect(c["apollo11"]?.dataHash != apollo11.dataHash, "\(what)")
            #expect(c["apollo8"]?.dataHash == apollo8.dataHash, "\(what)")
        }
        // The kernels' identities: each one counts, in order, and they cannot run together.
        let a = apollo11.dataHash(kernels: ["crc32:1b2c3d4e"])
        #expect(a != apollo11.dataHash)
        #expect(a == apollo11.dataHash(kernels: ["crc32:1b2c3d4e"]))
        #expect(a != apollo11.dataHash(kernels: ["crc32:1b2c3d4f"]))
        #expect(apollo11.dataHash(kernels: ["ab", "c"]) != apollo11.dataHash(kernels: ["a", "bc"]))
        #expect(apollo11.dataHash(kernels: ["a", "b"]) != apollo11.dataHash(kernels: ["b", "a"]))
        #expect(!MissionEngine.engineVersion.isEmpty)
    }

    // MARK: - Derived numbers

    @Test("label window and replay speed follow the mission's span")
    func derivedNumbers() {
        let apollo11 = TestMissions.mission("apollo11")
        // 195.31 h × 3% = 5.859 h; Voyager 2 runs to its last event (2018) and clamps at 500 h.
        #expect(abs(apollo11.labelWindowHours - 195.309_7 * 0.03) < 1e-4)
        #expect(TestMissions.mission("voyager2").labelWindowHours == 500)
        // 195 h in ~70 s is 10,000×; Voyager 2's 41 years to its last event (361,000 h) 20,000,000×.
        let expected: [String: Double] = ["apollo8": 10_000, "apollo11": 10_000, "apollo13": 10_000, "artemis2": 10_000, "voyager2": 20_000_000]
        for (id, scale) in expected { #expect(TestMissions.mission(id).autoTimeScale == scale, "\(id)") }
        // An ongoing mission's span for these rules ends at its last event, not at the present.
        let voyager1 = TestMissions.mission("voyager1")
        #expect(voyager1.durationHours == voyager1.events.last?.timeHours)
    }
}
