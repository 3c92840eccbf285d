import Ephemeris

/// The text after `$$EOE`: Horizons' own explanations (``HorizonsFooters``, generated from its
/// answers), adjusted to the request's time scale, frame, units and corrections, and this
/// server's credit in place of JPL's.
enum HorizonsFooter {
    static func adapt(_ text: String, settings s: HorizonsSettings) -> String {
        var t = text
        switch s.timeScale {
        case .tdb: break
        case .tt:
            t = replaceSection(t, from: "  Barycentric Dynamical Time", to: "  Calendar dates prior", with: """
              Terrestrial Time ("TT") output was requested: the uniform time of a clock
            on the geoid, TDB less its periodic terms (at most 1.7 ms).


            """)
        case .ut:
            t = replaceSection(t, from: "  Barycentric Dynamical Time", to: "  Calendar dates prior", with: """
              Universal Time output was requested: UTC from 1972 (leap seconds from IERS
            Bulletin C), UT1 before (ΔT from the IERS tables and Stephenson, Morrison &
            Hohenkerk 2016).


            """)
        }
        t = t.replacingOccurrences(of: "JDTDB    Julian Day Number, Barycentric Dynamical Time",
                                   with: "JD\(s.timeScale.rawValue)\(String(repeating: " ", count: max(1, 7 - s.timeScale.rawValue.count)))Julian Day Number, \(scaleName(s.timeScale))")
        if s.refPlane != .ecliptic {
            t = replaceSection(t, from: "  Ecliptic at the standard reference epoch", to: "  Symbol meaning", with: s.refPlane == .frame ? """
              International Celestial Reference Frame (ICRF)

                The ICRF is an adopted reference frame whose axes are defined relative to
                fixed extragalactic radio sources distributed across the sky.


            """ : """
              Body mean equator and node of date

                Z-axis : the centre body's north pole (IAU rotation model) at the instant;
                X-axis : the ascending node of its equator on the ICRF equator.


            """)
        }
        switch s.units {
        case .auD: break
        case .kmS:
            t = t.replacingOccurrences(of: "(au/day)", with: "(km/sec)").replacingOccurrences(of: "(au)", with: "(km)").replacingOccurrences(of: "light-time (day)", with: "light-time (sec)")
        case .kmD:
            t = t.replacingOccurrences(of: "(au/day)", with: "(km/day)").replacingOccurrences(of: "(au)", with: "(km)")
        }
        switch s.correction {
        case .none: break
        case .lightTime:
            t = t.replacingOccurrences(of: " Geometric state vectors have NO corrections or aberrations applied.",
                                       with: " Astrometric states: the target where the light seen at the centre left it\n(down-leg light time, solved about the solar-system barycentre).")
        case .lightTimeStellar:
            t = t.replacingOccurrences(of: " Geometric state vectors have NO corrections or aberrations applied.",
                                       with: " Apparent states: light time, then stellar aberration by the centre's\nbarycentric velocity (the position turned, its length kept).")
        }
        return t
    }

    static func scaleName(_ s: HorizonsTimeScale) -> String {
        switch s {
        case .tdb: return "Barycentric Dynamical Time"
        case .tt: return "Terrestrial Time"
        case .ut: return "Universal Time"
        }
    }

    /// Replaces the lines from the one starting with `from` to the one before `to`.
    static func replaceSection(_ text: String, from: String, to: String, with replacement: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let a = lines.firstIndex(where: { $0.hasPrefix(from) }), let b = lines[a...].firstIndex(where: { $0.hasPrefix(to) }) else { return text }
        lines.replaceSubrange(a..<b, with: replacement.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast())
        return lines.joined(separator: "\n")
    }

    /// Who computed the table, in place of JPL's "Computations by ..." block.
    static func credit(_ c: HorizonsContext) -> String {
        let kernel = c.ephemeris.kernel?.label ?? "no DE kernel"
        return """
        Computations by ...

            SolarSystem server: a Horizons-compatible endpoint, not JPL's Horizons.
            Planets, Sun and Moon: \(kernel) inside its span, analytical theories outside;
            small bodies integrated here from their elements; spacecraft from the loaded
            SPK kernels; Earth satellites by SGP4. Models and measured agreement with
            Horizons: docs/horizons.md.


        """
    }
}
