import Testing
@testable import HTTPCore

@Suite("QueryParameters")
struct QueryParametersTests {
    private func query(_ target: String) throws -> QueryParameters {
        try HTTPRequest(target: target).query
    }

    private enum Frame: String, CaseIterable { case ecliptic = "ecliptic-j2000", equatorial = "equatorial-j2000" }

    @Test func typedAccessors() throws {
        let q = try query("/x?date=2026-11-22&samples=512&max=5.5&bodies=earth,%20moon&frame=equatorial-j2000&flag=yes")
        #expect(try q.string("date") == "2026-11-22")
        #expect(try q.require("date") == "2026-11-22")
        #expect(try q.int("samples", in: 16...4096, default: 256) == 512)
        #expect(try q.int("absent", in: 16...4096, default: 256) == 256)
        #expect(try q.double("max", in: -2...30, default: 6) == 5.5)
        #expect(try q.list("bodies") == ["earth", "moon"])
        #expect(try q.oneOf("frame", ["ecliptic-j2000", "equatorial-j2000"], default: "ecliptic-j2000") == "equatorial-j2000")
        #expect(try q.oneOf("frame", default: Frame.ecliptic) == .equatorial)
        #expect(try q.bool("flag") == true)
        #expect(try q.string("nothing") == nil)
    }

    @Test func outOfRangeNamesParameterAndAcceptedRange() throws {
        let q = try query("/x?samples=9000")
        do {
            _ = try q.int("samples", in: 16...4096, default: 256)
            Issue.record("expected a problem")
        } catch {
            #expect(error.status == .badRequest)
            #expect(error[extension: "parameter"] == .string("samples"))
            #expect(error[extension: "value"] == .string("9000"))
            #expect(error.detail?.contains("16") == true && error.detail?.contains("4096") == true)
        }
    }

    @Test func notANumber() throws {
        let q = try query("/x?maxMagnitude=bright")
        #expect(throws: ProblemDetails.self) { try q.double("maxMagnitude", in: -2...20, default: 6) }
        let nan = try query("/x?maxMagnitude=nan")
        #expect(throws: ProblemDetails.self) { try nan.double("maxMagnitude") }
    }

    @Test func repeatedParameterIsRejected() throws {
        let q = try query("/x?date=2026-01-01&date=2027-01-01")
        do {
            _ = try q.string("date")
            Issue.record("expected a problem")
        } catch {
            #expect(error.status.code == 400)
            #expect(error[extension: "parameter"] == .string("date"))
            #expect(error.detail?.contains("repeated parameter") == true)
        }
        #expect(q.values("date") == ["2026-01-01", "2027-01-01"])
    }

    @Test func missingRequiredAndBadChoices() throws {
        let q = try query("/x?frame=galactic&bodies=earth,,moon")
        #expect(throws: ProblemDetails.self) { try q.require("date") }
        do {
            _ = try q.oneOf("frame", ["ecliptic-j2000", "equatorial-j2000"])
            Issue.record("expected a problem")
        } catch {
            #expect(error[extension: "accepted"] == .array(["ecliptic-j2000", "equatorial-j2000"]))
        }
        #expect(throws: ProblemDetails.self) { try q.list("bodies") }
        #expect(throws: ProblemDetails.self) { try q.rejectUnknown(["date"]) }
    }

    @Test func problemJSONShape() throws {
        let p = ProblemDetails.invalidParameter("samples", value: "9\"x", accepted: "an integer from 16 to 4096")
        let text = String(decoding: p.jsonBytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"about:blank","title":"Invalid query parameter","status":400,"detail":"#))
        #expect(text.contains(#""parameter":"samples","value":"9\"x","accepted":"an integer from 16 to 4096""#))
    }
}
