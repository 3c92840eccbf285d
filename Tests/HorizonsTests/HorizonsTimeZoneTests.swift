import Foundation
import Testing
import Ephemeris
@testable import Horizons

/// `TIME_ZONE`: observer tables in UT read and print their calendar dates in local civil time.
@Suite("Horizons TIME_ZONE")
struct HorizonsTimeZoneTests {
    typealias T = HorizonsReferenceSystemTests

    static let marsFromGreenwich: [(String, String)] = [
        ("format", "text"), ("COMMAND", "'499'"), ("CENTER", "'000'"), ("QUANTITIES", "'1,4,20'"), ("CSV_FORMAT", "YES"),
        ("CAL_FORMAT", "BOTH"), ("ANG_FORMAT", "DEG"), ("STEP_SIZE", "'2 h'"),
    ]

    static func date(_ printed: String) throws -> Double {
        try #require(HorizonsTimeParser.parse(printed, gregorianOnly: false)).jd
    }

    @Test("'+HH:MM' and '-HH:MM' (and whole hours) from -12:00 to +14:00; the label Horizons prints")
    func parsing() {
        #expect(HorizonsTimeZone("-07:00")?.minutes == -420)
        #expect(HorizonsTimeZone("+05:30")?.minutes == 330)
        #expect(HorizonsTimeZone("05:45")?.minutes == 345)
        #expect(HorizonsTimeZone("+0")?.minutes == 0)
        #expect(HorizonsTimeZone("+14:00")?.minutes == 840)
        for bad in ["-12:30", "+25:00", "07-00", "+5:3", "-7:3x", "UT-7", "", "+05:60"] { #expect(HorizonsTimeZone(bad) == nil, "\(bad)") }
        #expect(HorizonsTimeZone("-01:00")?.label(.ut) == "UT-01:00")
        #expect(HorizonsTimeZone("+05:30")?.label(.ut) == "UT+05:30")
        #expect(HorizonsTimeZone.ut.label(.ut) == "UT")
    }

    @Test("A table in UT-07:00 has the UT table's quantities 7 hours later by its printed dates; the header's lines carry the zone")
    func localTable() throws {
        let local = try T.text(Self.marsFromGreenwich + [("TIME_ZONE", "'-07:00'"), ("START_TIME", "'2026-03-01 20:00'"), ("STOP_TIME", "'2026-03-02 02:00'")])
        let ut = try T.text(Self.marsFromGreenwich + [("START_TIME", "'2026-03-02 03:00'"), ("STOP_TIME", "'2026-03-02 09:00'")])
        #expect(local.contains("Start time      : A.D. 2026-Mar-01 20:00:00.0000 UT-07:00\n"), "\(local.prefix(2000))")
        #expect(local.contains("Stop  time      : A.D. 2026-Mar-02 02:00:00.0000 UT-07:00\n"))
        #expect(local.contains(" Date__(UT-07:00)__HR:MN, Date_________JDUT,"))
        #expect(ut.contains("Start time      : A.D. 2026-Mar-02 03:00:00.0000 UT      \n") && ut.contains(" Date__(UT)__HR:MN,"))
        let a = T.rows(local), b = T.rows(ut)
        #expect(a.count == 4 && b.count == 4)
        #expect(a.first?.first == "2026-Mar-01 20:00" && a.last?.first == "2026-Mar-02 02:00")
        for (l, u) in zip(a, b) {
            #expect(abs(try Self.date(l[0]) + 7.0 / 24 - (try Self.date(u[0]))) < 1e-9, "\(l[0]) vs \(u[0])")
            // The Julian date stays UT; every quantity is the UT row's.
            #expect(Array(l.dropFirst()) == Array(u.dropFirst()), "\(l) vs \(u)")
        }
    }

    @Test("TLIST calendar times are local; Julian dates are UT; +05:30 labels the columns and rows")
    func listsAndJulianDates() throws {
        let ut = try #require(T.rows(try T.text(Self.marsFromGreenwich + [("TLIST_TYPE", "CAL"), ("TLIST", "'2026-03-02T03:00'")])).first)
        let list = try T.text(Self.marsFromGreenwich + [("TIME_ZONE", "'+05:30'"), ("TLIST_TYPE", "CAL"), ("TLIST", "'2026-03-02T08:30'")])
        #expect(list.contains(" Date__(UT+05:30)__HR:MN:SC.fff,"))
        let listed = try #require(T.rows(list).first)
        #expect(listed[0] == "2026-Mar-02 08:30:00.000" && Array(listed.dropFirst()) == Array(ut.dropFirst()))
        // 2026-03-02 03:00 UT as a Julian date: the row prints 20:00 the day before in UT-07:00.
        let jd = try #require(T.rows(try T.text(Self.marsFromGreenwich + [("TIME_ZONE", "'-07:00'"), ("START_TIME", "'JD 2461101.625'"), ("STOP_TIME", "'JD 2461101.7'")])).first)
        #expect(jd[0] == "2026-Mar-01 20:00" && Array(jd.dropFirst()) == Array(ut.dropFirst()))
        // Month steps follow the local calendar: local midnights on the 1st, in +05:30.
        let monthly = T.rows(try T.text(Array(Self.marsFromGreenwich.dropLast()) + [("TIME_ZONE", "'+05:30'"), ("START_TIME", "'2026-03-31'"),
                                                                          ("STOP_TIME", "'2026-06-01'"), ("STEP_SIZE", "'1 mo'")]))
        #expect(monthly.map { $0[0] } == ["2026-Mar-31 00:00", "2026-Apr-30 00:00", "2026-May-31 00:00"])
    }

    @Test("Refused: a malformed zone, naming TIME_ZONE and what it takes; a zone for VECTORS, ELEMENTS or TIME_TYPE=TT; +00:00 is taken everywhere")
    func refusals() throws {
        let start: [(String, String)] = [("START_TIME", "'2026-03-01'"), ("STOP_TIME", "'2026-03-02'")]
        let malformed = try T.text(Self.marsFromGreenwich + start + [("TIME_ZONE", "'-7:3x'")])
        #expect(malformed.hasPrefix("FAILURE: Cannot interpret TIME_ZONE = -7:3x") && malformed.contains("'+HH:MM' or '-HH:MM'"), "\(malformed)")
        #expect(try T.text(Self.marsFromGreenwich + start + [("TIME_ZONE", "'+13:00'")]).contains("$$SOE"))
        #expect(try T.text(Self.marsFromGreenwich + start + [("TIME_ZONE", "'-13:00'")]).contains("Cannot interpret TIME_ZONE = -13:00"))
        let vectors = try T.text(T.marsVectors + [("TIME_ZONE", "'-07:00'")])
        #expect(vectors.contains("Cannot interpret TIME_ZONE = -07:00") && vectors.contains("EPHEM_TYPE=OBSERVER with TIME_TYPE=UT"))
        let elements = try T.text([("COMMAND", "'499'"), ("EPHEM_TYPE", "ELEMENTS"), ("CENTER", "'500@10'"), ("TIME_ZONE", "'+01:00'")] + start)
        #expect(elements.contains("Cannot interpret TIME_ZONE = +01:00"))
        #expect(try T.text(Self.marsFromGreenwich + start + [("TIME_TYPE", "TT"), ("TIME_ZONE", "'-07:00'")]).contains("Cannot interpret TIME_ZONE"))
        #expect(try T.text(T.marsVectors + [("TIME_ZONE", "'+00:00'")]).contains("$$SOE"))
    }
}
