/// A libmosquitto call that failed while the bridge was being set up.
public enum MosquittoError: Error, Equatable, Sendable {
    /// `mosquitto_new` returned no client.
    case noClient
    /// A setup call failed: which one, and libmosquitto's words.
    case setup(String, String)
}
