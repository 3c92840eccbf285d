// libFuzzer target for the HTTP request parser (built by scripts/fuzz-http.sh together with
// Sources/HTTPCore/Core/*.swift). Each input is parsed twice — whole, and split into pieces whose
// size comes from the first byte — and the two runs must agree: same requests, same error.
// Any crash, sanitizer report or disagreement is a finding.

private struct Outcome: Equatable {
    var requests: [String] = []
    var error: Int?
}

private func parse(_ bytes: UnsafeBufferPointer<UInt8>, pieceSize: Int?) -> Outcome {
    var limits = HTTPParserLimits()
    // Smaller limits so the fuzzer reaches them with short inputs.
    limits.maxRequestLineBytes = 256
    limits.maxHeaderBytes = 1024
    limits.maxHeaderCount = 16
    limits.maxBodyBytes = 4096
    var parser = HTTPParser(limits: limits)
    var outcome = Outcome()
    func drain() -> Bool {
        while true {
            switch parser.next() {
            case .needMore: return true
            case .continueExpected: continue
            case .request(let r):
                // Touch everything the server would use.
                _ = r.wantsKeepAlive
                _ = try? r.query.string("a")
                outcome.requests.append("\(r.method) \(r.path) \(r.authority) \(r.query.count) \(r.headers.count) \(r.body.count) \(r.trailers.count)")
            case .error(let e):
                _ = e.problem.jsonBytes
                outcome.error = e.status.code
                return false
            }
        }
    }
    if let pieceSize {
        var i = 0
        while i < bytes.count {
            let end = min(bytes.count, i + pieceSize)
            parser.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[i..<end]))
            if !drain() { break }
            i = end
        }
    } else {
        parser.append(UnsafeRawBufferPointer(bytes))
        _ = drain()
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let whole = parse(bytes, pieceSize: nil)
    let piece = size > 0 ? Int(data[0] % 13) + 1 : 1
    let split = parse(bytes, pieceSize: piece)
    if whole != split {
        fatalError("whole and split parses disagree: \(whole) vs \(split) (piece \(piece))")
    }
    return 0
}
