import Testing
@testable import Missions

@Suite("Mission events: lookups, last and next, visible labels")
struct MissionEventsTests {
    static let apollo11 = TestMissions.mission("apollo11")

    @Test("events between two times, bounds included")
    func lookups() throws {
        let m = Self.apollo11
        // Undocking 100:12, DOI 101:36, PDI 102:33, landing 102:45, first step 109:24 GET.
        #expect(m.events(from: 100, to: 110).map(\.key) == ["undock", "doi", "pdi", "landing", "first-step"])
        #expect(m.events(from: 190).map(\.key) == ["entry", "splashdown"])
        #expect(m.events(to: 0).map(\.key) == ["launch"])
        #expect(m.events(from: 196).isEmpty)
        let loi = try #require(m.events.first { $0.key == "loi" })
        #expect(m.events(from: loi.timeHours, to: loi.timeHours) == [loi])
        #expect(m.events().count == 13)
    }

    @Test("last and next event around a time, and the labels shown within the window")
    func status() throws {
        let m = Self.apollo11
        let start = m.eventStatus(at: 0)
        #expect(start.lastEvent?.key == "launch" && start.nextEvent?.key == "tli")
        #expect(start.visibleLabels.isEmpty, "launch and TLI have no label, LOI is 76 h away")
        let before = m.eventStatus(at: -5)
        #expect(before.lastEvent == nil && before.nextEvent?.key == "launch")
        let end = m.eventStatus(at: 196)
        #expect(end.lastEvent?.key == "splashdown" && end.nextEvent == nil)
        // An event at exactly t is the last one, not the next.
        let loi = try #require(m.events.first { $0.key == "loi" })
        let at = m.eventStatus(at: loi.timeHours)
        #expect(at.lastEvent == loi && at.nextEvent?.key == "undock")
        // The window is 3% of 195.31 h = 5.86 h: at 105 h undocking (4.8 h ago), the landing and
        // the first step (4.4 h ahead) show; at 106.1 h undocking is 5.9 h ago and gone.
        #expect(m.eventStatus(at: 105).visibleLabels.map(\.key) == ["undock", "landing", "first-step"])
        #expect(m.eventStatus(at: 106.1).visibleLabels.map(\.key) == ["landing", "first-step"])
        #expect(m.eventStatus(at: 105).visibleLabels.allSatisfy { $0.showLabel })
    }

    @Test("an engine's mission answers with its date-only events at their resolved times")
    func resolvedEvents() throws {
        let juno = ServedMissions.engine("juno").mission
        let io1 = try #require(juno.events.first { $0.key == "io1" })
        // The file gives 2023-12-30; the flyby was at 08:35 UTC.
        #expect(io1.timeHours > TestMissions.mission("juno").events.first { $0.key == "io1" }!.timeHours + 1)
        #expect(juno.eventStatus(at: io1.timeHours).lastEvent?.key == "io1")
        #expect(juno.eventStatus(at: io1.timeHours - 0.01).nextEvent?.key == "io1")
        #expect(juno.eventStatus(at: io1.timeHours).visibleLabels.contains(io1))
    }
}
