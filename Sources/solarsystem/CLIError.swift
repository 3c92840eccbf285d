/// A failure the CLI reports as one line on stderr (exit status 1), without the usage text
/// ArgumentParser prints for `ValidationError` (which is for malformed command lines).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
