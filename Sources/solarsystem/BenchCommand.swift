import ArgumentParser

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks (release builds only give meaningful figures).",
        subcommands: [SnapshotBenchCommand.self, SkyBenchCommand.self, EclipseBenchCommand.self, TrajectoryBenchCommand.self, TelemetryBenchCommand.self, RenderBenchCommand.self, PropagatorBenchCommand.self, SatelliteBenchCommand.self, SmallBodyBenchCommand.self, HorizonsBenchCommand.self, ElementSetBenchCommand.self, HTTPFixtureCommand.self]
    )
}
