/// When the advertisement is registered again after a connection change (docs/BLUEZ.md, "Links and
/// roles"). A connectable advertisement goes off-air when a central connects; registering it again
/// (`UnregisterAdvertisement`, `RegisterAdvertisement`) while that central is still resolving our
/// database stalled the new connection's ATT in the emulator: the central's slot claim got no answer
/// and the attempt ran into its 32 s deadline (5 of 5 such first connections; 0 of 4 stalled when the
/// claim came first). So after a connection the node waits for the link, or ``afterConnection`` if
/// none comes; after a disconnection or a link change it registers again after ``afterChange``.
public enum AdvertisementRefresh {
    /// Seconds after any other change (a disconnection, a link up or down).
    public static let afterChange = 1.0
    /// Seconds after a central connected, unless its link comes up first (then ``afterChange``).
    public static let afterConnection = 10.0

    /// The delay before registering again, for a device whose `Connected` became `connected`.
    public static func delay(connected: Bool) -> Double { connected ? afterConnection : afterChange }
}
