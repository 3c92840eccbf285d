import Ephemeris
import SmallBodies

/// What `COMMAND` asks for, as Horizons reads it: a major body by NAIF id (`'499'`, `'-31'`) or
/// by the start of its name or alias (`'Mars'` matches "Mars Barycenter" and "Mars", as Horizons'
/// `MARS*` does), the major-body list (`'MB'`), or — with a `;` — a small-body search (`'1;'` a
/// record number, `'Ceres;'`, `'DES=99942;'`, `'NAME=Ceres;'`, `'ASTNAM='`, `'COMNAM=Halley; CAP;'`,
/// `'2P;'`, `'C/1995 O1;'`; `CAP` and `NOFRAG` accepted). A name no major body has falls through
/// to the small bodies, as in Horizons.
enum HorizonsCommand: Equatable {
    case majorID(Int)
    case majorName(String)
    case majorList
    case smallBody(SmallBodySearch)

    struct SmallBodySearch: Equatable {
        enum Field: String { case any = "STRING", designation = "DES", name = "NAME", asteroidName = "ASTNAM", cometName = "COMNAM" }
        var field: Field
        var value: String
    }

    static func parse(_ raw: String) -> HorizonsCommand {
        let text = raw.trimmingBlanks()
        if text.contains(";") {
            var search = SmallBodySearch(field: .any, value: "")
            for part in text.split(separator: ";") {
                let item = part.trimmingBlanks()
                let upper = item.uppercased()
                if upper.isEmpty || upper == "CAP" || upper.hasPrefix("CAP") && upper.dropFirst(3).allSatisfy({ $0.isNumber || $0 == "<" || $0 == ">" || $0 == "=" }) || upper == "NOFRAG" { continue }
                if let eq = item.firstIndex(of: "=") {
                    let key = item[..<eq].trimmingBlanks().uppercased()
                    let value = item[item.index(after: eq)...].trimmingBlanks()
                    if let f = SmallBodySearch.Field(rawValue: key), f != .any, search.value.isEmpty {
                        search = SmallBodySearch(field: f, value: value)
                        continue
                    }
                }
                if search.value.isEmpty { search = SmallBodySearch(field: .any, value: item) }
            }
            return .smallBody(search)
        }
        if text.uppercased() == "MB" { return .majorList }
        if let id = Int(text) { return .majorID(id) }
        return .majorName(text)
    }
}

/// The outcome of a COMMAND: one body, or Horizons' text for several or none.
enum HorizonsLookup {
    case body(HorizonsBody)
    case listing(String)
}

extension HorizonsContext {
    func lookup(_ command: HorizonsCommand) -> HorizonsLookup {
        switch command {
        case let .majorID(id):
            if let b = majorBody(id) { return .body(b) }
            // Not a major body: Horizons searches the small bodies for it.
            return lookupSmall(.init(field: .any, value: String(id)))
        case let .majorName(name):
            let matches = majorMatches(name)
            if matches.count == 1, let b = majorBody(matches[0].id) { return .body(b) }
            if matches.count > 1 { return .listing(majorListing(matches, pattern: name.uppercased() + "*")) }
            return lookupSmall(.init(field: .any, value: name))
        case .majorList:
            return .listing(majorListing(majorEntries, pattern: "*"))
        case let .smallBody(search):
            return lookupSmall(search)
        }
    }

    /// Major bodies whose name, designation or alias starts with `text` (case-insensitive).
    func majorMatches(_ text: String) -> [MajorEntry] {
        let q = text.uppercased()
        guard !q.isEmpty else { return [] }
        return majorEntries.filter { e in
            [e.name, e.designation, e.aliases].contains { !$0.isEmpty && $0.uppercased().hasPrefix(q) }
        }
    }

    func majorListing(_ entries: [MajorEntry], pattern: String) -> String {
        var s = HorizonsText.rule + "\n"
        s += " Multiple major-bodies match string \"\(pattern)\"\n\n"
        s += "  ID#      Name                               Designation  IAU/aliases/other   \n"
        s += "  -------  ---------------------------------- -----------  ------------------- \n"
        for e in entries {
            s += HorizonsText.left(HorizonsText.right(String(e.id), 9) + "  " + HorizonsText.left(e.name, 34) + " " + HorizonsText.left(e.designation, 11) + "  " + HorizonsText.left(e.aliases, 19), 79) + "\n"
        }
        s += "\n   Number of matches =\(HorizonsText.right(String(entries.count), 4)). Use ID# to make unique selection.\n"
        s += HorizonsText.rule + "\n"
        return s
    }

    /// The small bodies a search matches: a record number, an exact designation or name, or
    /// failing those every body whose designation or name contains the text.
    func smallMatches(_ search: HorizonsCommand.SmallBodySearch) -> [SmallBodyCatalogue.Handle] {
        let value = search.value
        guard !value.isEmpty else { return [] }
        let slug = SmallBodyCatalogue.slug(value)
        if search.field == .any || search.field == .designation, let n = Int(value), n > 0 {
            if let h = handle(record: n) { return [h] }
            return []
        }
        var exact: [SmallBodyCatalogue.Handle] = []
        if search.field == .any || search.field == .designation, let h = smallBodies.resolve("sb:" + slug) {
            exact.append(h)
        }
        if search.field != .designation {
            let (handles, _) = smallBodies.search(value, offset: 0, limit: 200)
            for h in handles {
                let b = smallBodies.body(h)
                guard let name = b.name, SmallBodyCatalogue.slug(name) == slug else { continue }
                if search.field == .asteroidName, b.kind != .asteroid { continue }
                if search.field == .cometName, b.kind != .comet { continue }
                if !exact.contains(h) { exact.append(h) }
            }
        }
        if !exact.isEmpty { return exact }
        let (handles, _) = smallBodies.search(value, kind: search.field == .asteroidName ? .asteroid : search.field == .cometName ? .comet : nil,
                                              offset: 0, limit: 200)
        return handles
    }

    func lookupSmall(_ search: HorizonsCommand.SmallBodySearch) -> HorizonsLookup {
        let matches = smallMatches(search)
        if matches.count == 1 { return .body(smallBody(matches[0])) }
        var s = HorizonsText.rule + "\n"
        s += HorizonsText.left("JPL/DASTCOM", 23) + HorizonsText.left("Small-body Index Search Results", 38) + HorizonsText.stamp(now()) + "\n\n"
        s += " Comet AND asteroid index search:\n\n"
        s += "    \(search.field.rawValue) = \(search.value.uppercased());\n\n"
        s += " Matching small-bodies: \n"
        if matches.isEmpty {
            s += "    No matches found.\n"
        } else {
            s += "\n    Record #  Epoch-yr  >MATCH DESIG<  Primary Desig  Name  \n"
            s += "    --------  --------  -------------  -------------  -------------------------\n"
            for h in matches {
                let b = smallBodies.body(h)
                let year = String(Int(CivilDateTime(julianDay: b.elements.epochJDTDB).year))
                let primary = b.number.map(String.init) ?? b.designation
                s += "    " + HorizonsText.right(String(recordNumber(h)), 8) + "  " + HorizonsText.right(year, 8) + "  " + HorizonsText.left(b.designation, 13)
                    + "  " + HorizonsText.left(primary, 13) + "  " + (b.name ?? "") + "\n"
            }
            s += "\n (\(matches.count) matches. To SELECT, enter record # (integer), followed by semi-colon.)\n"
        }
        s += HorizonsText.rule + "\n"
        return .listing(s)
    }
}
