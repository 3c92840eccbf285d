import HTTPCore
import HTTPTestSupport
@testable import SolarSystemAPI
import Testing

@Suite("Routes under response-memory pressure")
struct MemoryPressureRoutesTests {
    @Test("over the response-memory limit a front-end's snapshots are still answered; new series, orbits and catalogues get 503")
    func snapshotsServedUnderPressure() throws {
        let ledger = MemoryLedger()
        let server = try TestServer(configure: { $0.responseMemoryLimit = 1 << 20; $0.memoryLedger = ledger }) {
            V1API(services: APIServer.services).register(on: $0)
        }
        defer { server.stop() }
        // 2 MiB held, as slow clients of large answers would hold it.
        let held = EncodedBody(bytes: [UInt8](repeating: 1, count: 2 << 20), contentType: "application/octet-stream", ledger: ledger)
        for path in ["/v1/positions?date=2031-05-06", "/v1/rotations?date=2031-05-06", "/v1/scene?date=2031-05-06", "/v1/bodies"] {
            #expect(try server.get(path).status == 200, "\(path)")
        }
        for path in ["/v1/positions/mars?start=2031-01-01&stop=2031-02-01&step=1h", "/v1/orbits?date=2031-05-06&samples=67",
                     "/v1/stars?maxMagnitude=3.21", "/v1/missions/apollo11/trajectory?samples=123"] {
            let r = try server.get(path)
            #expect(r.status == 503 && r.header("retry-after") != nil, "\(path): \(r.status)")
        }
        withExtendedLifetime(held) {}
    }
}
