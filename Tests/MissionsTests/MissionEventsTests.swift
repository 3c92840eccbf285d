import Testing
@testable import Missions

@Suite struct MissionEventsTests {
    static let apollo11 = TestMissions.mission("apollo11")

    @Test func lookups() {
        let m = Self.apollo11
        #expect(m.events(from: 100, to: 110).map(\.name) == ["LM Undock", "Eagle Landing", "First Step"])
        #expect(m.events(from: 190).map(\.name) == ["Splashdown"])
        #expect(m.events(to: 0).map(\.name) == ["Launch"])
        let start = m.eventStatus(at: 0)
        #expect(start.lastEvent?.name == "Launch" && start.nextEvent?.name == "TLI")
        #expect(start.visibleLabels.isEmpty, "Launch and TLI have showLabel false")
        let before = m.eventStatus(at: -5)
        #expect(before.lastEvent == nil && before.nextEvent?.name == "Launch")
        let end = m.eventStatus(at: 196)
        #expect(end.lastEvent?.name == "Splashdown" && end.nextEvent == nil)
        // Window 5.85 h: at 105 both LM Undock (100.2) and Eagle Landing (102.75) and First Step (109.4) show.
        #expect(m.eventStatus(at: 105).visibleLabels.map(\.name) == ["LM Undock", "Eagle Landing", "First Step"])
        #expect(m.eventStatus(at: 106.1).visibleLabels.map(\.name) == ["Eagle Landing", "First Step"])
    }
}
