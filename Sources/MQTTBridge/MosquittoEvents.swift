/// What a ``MosquittoClient`` reports from inside `mosquitto_loop`, on the bridge's own thread.
struct MosquittoEvents: Sendable {
    /// The broker answered a connection: 0 is success, else an MQTT 5 reason code.
    var connected: @Sendable (_ reason: Int32) -> Void
    /// The connection ended: 0 when we asked for it.
    var disconnected: @Sendable (_ reason: Int32) -> Void
    /// A message arrived: its topic, and its payload in libmosquitto's buffer, valid only during
    /// the call (nothing is copied before the size is checked).
    var message: @Sendable (_ topic: String, _ payload: UnsafeRawBufferPointer) -> Void
}
