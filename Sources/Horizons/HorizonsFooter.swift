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
        if let frame = frameSection(s.refPlane, s.refSystem) {
            t = replaceSection(t, from: "  Ecliptic at the standard reference epoch", to: "  Symbol meaning", with: frame)
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

    /// The REFERENCE FRAME section for a plane and system other than Horizons' recorded
    /// ecliptic of J2000 (nil: that one, kept as recorded).
    static func frameSection(_ plane: HorizonsSettings.RefPlane, _ system: HorizonsSettings.RefSystem) -> String? {
        switch (plane, system) {
        case (.ecliptic, .icrf): return nil
        case (.ecliptic, .b1950): return """
              Ecliptic at the B1950.0 reference epoch

                Reference epoch: B1950.0
                X-Y plane: Earth orbital plane at B1950.0
                           Note: obliquity of 84404.836 arcseconds wrt the FK4/B1950 X-Y plane
                X-axis   : FK4/B1950 equinox
                Z-axis   : perpendicular to the X-Y plane in the directional (+ or -) sense
                           of Earth's north pole at the reference epoch.

                The ICRF states are turned by SPICE's fixed ECLIPB1950 rotation.


            """
        case (.frame, .icrf): return """
              International Celestial Reference Frame (ICRF)

                The ICRF is an adopted reference frame whose axes are defined relative to
                fixed extragalactic radio sources distributed across the sky.


            """
        case (.frame, .b1950): return """
              FK4/B1950.0

                Mean equator and equinox of B1950.0 of the FK4 catalogue: the ICRF states
                are turned by SPICE's fixed J2000-to-B1950 rotation (no E-terms).


            """
        case (.bodyEquator, _): return """
              Body mean equator and node of date

                Z-axis : the centre body's north pole (IAU rotation model) at the instant;
                X-axis : the ascending node of its equator on the \(system == .b1950 ? "FK4/B1950" : "ICRF") equator.


            """
        }
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
