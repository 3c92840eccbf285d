import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import OpenAPIURLSession

extension Client {
    /// A client for the server at `serverURL` over URLSession (FoundationNetworking on Linux).
    ///
    /// ```swift
    /// let client = Client.solarSystem(URL(string: "http://localhost:8080")!)
    /// ```
    public static func solarSystem(_ serverURL: URL, session: URLSession = .shared) -> Client {
        Client(serverURL: serverURL, transport: URLSessionTransport(configuration: .init(session: session)))
    }
}
