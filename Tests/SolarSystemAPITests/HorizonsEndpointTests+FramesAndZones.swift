import Foundation
import Testing
import HTTPCore
import HTTPTestSupport
@testable import SolarSystemAPI

/// `REF_SYSTEM=B1950` and `TIME_ZONE` through the server: the headers astroquery reads, and the
/// refusal of a malformed zone with 400 inside Horizons' envelope.
extension HorizonsEndpointTests {
    @Test("REF_SYSTEM=B1950 and TIME_ZONE through the server: FK4/B1950 columns and frame line, local dates, a malformed zone refused with 400")
    func b1950AndTimeZone() throws {
        let observer = try HorizonsServer.get([("format", "text"), ("COMMAND", "'499'"), ("CENTER", "'675'"), ("QUANTITIES", "'1,4'"),
                                               ("CSV_FORMAT", "YES"), ("REF_SYSTEM", "B1950"), ("TIME_ZONE", "'-07:00'"),
                                               ("START_TIME", "'2026-06-01 20:00'"), ("STOP_TIME", "'2026-06-01 22:00'"), ("STEP_SIZE", "'1 h'")])
        #expect(observer.status == 200)
        #expect(observer.bodyText.contains(" Date__(UT-07:00)__HR:MN, , , R.A._(FK4/B1950), DEC_(FK4/B1950),"))
        #expect(observer.bodyText.contains("Start time      : A.D. 2026-Jun-01 20:00:00.0000 UT-07:00"))
        #expect(HorizonsServer.rows(observer.bodyText).map { $0[0] } == ["2026-Jun-01 20:00", "2026-Jun-01 21:00", "2026-Jun-01 22:00"])
        let vectors = try HorizonsServer.get(Self.marsVectors + [("REF_SYSTEM", "'B1950'")])
        #expect(vectors.status == 200)
        #expect(vectors.bodyText.contains("Reference frame : Ecliptic of B1950.0"))
        let bad = try HorizonsServer.get([("COMMAND", "'499'"), ("TIME_ZONE", "'UT-7'"), ("START_TIME", "'2026-06-01'"), ("STOP_TIME", "'2026-06-02'")])
        #expect(bad.status == 400)
        #expect((bad.json["error"] as? String)?.contains("Cannot interpret TIME_ZONE = UT-7") == true)
    }
}
