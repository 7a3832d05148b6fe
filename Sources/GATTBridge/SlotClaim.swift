/// What a write to a slot characteristic does.
public enum SlotClaim: Equatable, Sendable {
    /// The slot was free and is now the writer's.
    case granted
    /// The writer already holds this slot.
    case held
    /// Another device holds the slot; `exhausted` when every slot is held.
    case taken(exhausted: Bool)
    /// The writer holds another slot (one slot per device).
    case holdsAnother(Int)
    /// No such slot.
    case noSuchSlot

    /// Whether the write is accepted.
    public var accepted: Bool { self == .granted || self == .held }
}
