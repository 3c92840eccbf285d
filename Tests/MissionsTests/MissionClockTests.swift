import Testing
@testable import Missions

@Suite struct MissionClockTests {
    @Test func metAtDayBoundary() {
        let justBefore: Double = 23.0 + 59.0 / 60.0 + 59.0 / 3600.0
        #expect(MissionClock.met(hours: justBefore) == "T+00:23:59:59")
        #expect(MissionClock.met(hours: 24) == "T+01:00:00:00")
        #expect(MissionClock.met(hours: 0) == "T+00:00:00:00")
        #expect(MissionClock.met(hours: 80) == "T+03:08:00:00")
        let seedExample: Double = 2 * 24 + 14 + 32.0 / 60.0 + 8.0 / 3600.0
        #expect(MissionClock.met(hours: seedExample) == "T+02:14:32:08")
    }

    @Test func metTruncatesSeconds() {
        #expect(MissionClock.met(hours: 1.0 / 3600 * 59.9) == "T+00:00:00:59")
        #expect(MissionClock.met(hours: 47.999_99) == "T+01:23:59:59")
    }

    @Test func metBeforeLaunchCountsDown() {
        #expect(MissionClock.met(hours: -0.25) == "T-00:00:15:00")
        #expect(MissionClock.met(hours: -25) == "T-01:01:00:00")
        #expect(MissionClock.met(hours: -0.000_000_01) == "T+00:00:00:00")
    }

    @Test func metLongMissionsGrowTheDayField() {
        #expect(MissionClock.met(hours: 105_000) == "T+4375:00:00:00")
        #expect(MissionClock.met(hours: 2400) == "T+100:00:00:00")
    }

    @Test func metMilliseconds() {
        #expect(MissionClock.metMilliseconds(hours: 80) == 288_000_000)
        #expect(MissionClock.metMilliseconds(hours: -1) == -3_600_000)
    }

    @Test func labelWindow() {
        #expect(MissionClock.labelVisible(eventHours: 100, at: 105, windowHours: 5.85))
        #expect(!MissionClock.labelVisible(eventHours: 100, at: 105.86, windowHours: 5.85))
        #expect(MissionClock.labelWindowHours(durationHours: 1_000_000) == 500)
        #expect(MissionClock.labelWindowHours(durationHours: 2) == 1)
    }
}
