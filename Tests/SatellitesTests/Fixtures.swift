import Foundation

/// The test fixtures, read from the test bundle (`Fixtures/README.md` says where each comes from).
enum Fixtures {
    static func text(_ name: String) -> String {
        let dot = name.lastIndex(of: ".")!
        guard let url = Bundle.module.url(forResource: String(name[..<dot]), withExtension: String(name[name.index(after: dot)...]),
                                          subdirectory: "Fixtures"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { fatalError("Fixtures/\(name) missing from the test bundle") }
        return text
    }
}
