import Testing
@testable import Missions

/// The results the Missions module's documentation states, run as written (Skyfield's habit: a
/// docstring example that states a number is a test, so it cannot go stale unnoticed).
/// `MissionClock.met` and `ReplayEventID`'s examples are `MissionClockTests` and
/// `ReplayCursorTests.idsParseAndPrint`.
@Suite("Documentation examples: Missions")
struct MissionsDocumentationExampleTests {
    @Test("MissionCatalogue: Apollo 11 ends at 195.31 h (splashdown), with no warnings")
    func catalogueExample() throws {
        let missions = ServedMissions.catalogue
        #expect(missions.warnings.isEmpty, "\(missions.warnings)")
        let end = try #require(missions["apollo11"]?.endHours)
        #expect(abs(end - 195.31) < 0.005, "\(end)")
    }

    @Test("ReplayCursor: launch then the first tick at 0; TLI then the 3 h tick")
    func replayCursorExample() throws {
        let apollo11 = try #require(ServedMissions.catalogue["apollo11"])
        var cursor = ReplayCursor(mission: apollo11, from: 0, endHours: 195.31)
        let first = cursor.advance(to: 0)
        #expect(first.count == 2)
        if case let .missionEvent(e, id) = first.first {
            #expect(e.name == "Launch" && id == ReplayEventID(metMilliseconds: 0, sequence: 0), "\(e.name) \(id)")
        } else { Issue.record("the first item is \(String(describing: first.first))") }
        if case let .telemetry(hours, id) = first.last {
            #expect(hours == 0 && id.description == "0.1", "\(hours) \(id)")
        } else { Issue.record("the second item is \(String(describing: first.last))") }
        let next = cursor.advance(to: 3)
        #expect(next.count == 2)
        if case let .missionEvent(e, id) = next.first {
            #expect(e.key == "tli" && id.description == "9856000", "\(e.key ?? e.name) \(id)")
        } else { Issue.record("the third item is \(String(describing: next.first))") }
        if case let .telemetry(hours, id) = next.last {
            #expect(hours == 3 && id.description == "10800000", "\(hours) \(id)")
        } else { Issue.record("the fourth item is \(String(describing: next.last))") }
    }
}
