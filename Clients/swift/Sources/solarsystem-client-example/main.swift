// Prints the bodies, one position and the first telemetry of Apollo 11's replay from a running
// server: `swift run solarsystem-client-example http://127.0.0.1:8080`.
import Foundation
import SolarSystemClient

let url = URL(string: CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080")!
let client = Client.solarSystem(url)

// Without `kind` the answer is the catalogue (`BodyList`); `kind=small-body` searches the
// loaded asteroids and comets (`SmallBodyList`).
guard case .BodyList(let catalogue) = try await client.listBodies().ok.body.json else { fatalError("no catalogue") }
print("\(catalogue.bodies.count) bodies: \(catalogue.bodies.map(\.id).joined(separator: ", "))")

let positions = try await client.getPositions(query: .init(date: "2026-01-01", bodies: "earth,mars")).ok.body.json
for body in positions.value3.bodies {
    print("\(body.value1.id) at \(positions.value1.date): \(body.value2.position)")
}

let stream = try await client.streamMission(path: .init(id: "apollo11"), query: .init(speed: 1_000_000)).ok.body.textEventStream
for try await event in stream.missionStreamEvents() {
    if case .telemetry(let frame, _) = event {
        print("Apollo 11 \(frame.met): \(frame.vehicles.map { "\($0.name) \($0.distanceKm) km" }.joined(separator: ", "))")
        break
    }
}
