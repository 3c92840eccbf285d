import ArgumentParser

@main
struct SolarSystemCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solarsystem",
        abstract: "Ephemeris and space-mission HTTP API: positions, rotations, scene layout, missions, pictures.",
        version: SolarSystemVersion.current,
        subcommands: [ServeCommand.self, PositionsCommand.self, RenderCommand.self, MigrateCommand.self, HealthcheckCommand.self, BenchCommand.self, KernelsCommand.self],
        defaultSubcommand: nil
    )
}

enum SolarSystemVersion {
    static let current = "0.1.0"
}
