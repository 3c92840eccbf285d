import Testing
@testable import SmallBodies

@Suite("Small-body names")
struct SmallBodyCatalogueTests {
    let catalogue = Fixtures.catalogue

    @Test("sb:<number>, sb:<designation>, unique name slugs", arguments: [
        ("sb:1", "1 Ceres"), ("ceres", "1 Ceres"), ("sb:99942", "99942 Apophis (2004 MN4)"), ("sb:2004-mn4", "99942 Apophis (2004 MN4)"),
        ("apophis", "99942 Apophis (2004 MN4)"), ("sb:67p", "67P/Churyumov-Gerasimenko"), ("sb:1p", "1P/Halley"), ("halley", "1P/Halley"),
        ("sb:c-1995-o1", "C/1995 O1 (Hale-Bopp)"), ("hale-bopp", "C/1995 O1 (Hale-Bopp)"), ("sb:3200", "3200 Phaethon (1983 TB)"),
        ("sb:4", "4 Vesta"), ("neowise", "C/2020 F3 (NEOWISE)"),
    ])
    func names(_ id: String, _ fullName: String) throws {
        let h = try #require(catalogue.resolve(id))
        #expect(catalogue.body(h).fullName == fullName)
    }

    @Test("unknown and reserved names resolve to nothing")
    func unknown() {
        for id in ["sb:5", "sb:0", "sb:01", "sb:2099-zz9", "pallasx", "sb:", "europa"] { #expect(catalogue.resolve(id) == nil, "\(id)") }
    }

    @Test("a later file outranks an earlier one: Ceres is JPL's SBDB solution, not the MPC's")
    func precedence() throws {
        let ceres = catalogue.body(try #require(catalogue.resolve("sb:1")))
        #expect(ceres.source.format == .sbdbJSON)
        #expect(ceres.elements.epochJDTDB == 2_458_200.5)
        #expect(catalogue.count == 10)
        #expect(catalogue.id(try #require(catalogue.resolve("hale-bopp"))) == "sb:c-1995-o1")
        #expect(catalogue.id(try #require(catalogue.resolve("apophis"))) == "sb:99942")
    }

    @Test("search by number, designation or name, paged")
    func search() {
        #expect(catalogue.search("apo", offset: 0, limit: 10).handles.map { catalogue.body($0).name } == ["Apophis"])
        let all = catalogue.search("", offset: 0, limit: 3)
        #expect(all.total == 10 && all.handles.count == 3)
        #expect(catalogue.search("", kind: .comet, offset: 0, limit: 10).total == 4)
        #expect(catalogue.search("1995", offset: 0, limit: 10).handles.map { catalogue.body($0).designation } == ["C/1995 O1"])
    }
}
