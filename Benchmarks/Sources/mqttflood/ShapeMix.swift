/// Which shape message number i of a flood takes: the shapes' weights spread over a repeating
/// pattern (`garbage:4,forged:1` sends four garbage messages, then one forged, and again).
struct ShapeMix: Equatable, Sendable {
    /// The shapes with their weights, in the order given.
    let weights: [(shape: FloodShape, weight: Int)]
    private let pattern: [FloodShape]

    /// The most a single weight may be.
    static let maxWeight = 1000

    /// Reads `shape:weight,…` (a shape without a weight weighs 1).
    init(parsing text: String) throws(MQTTFloodOptionsError) {
        var weights: [(shape: FloodShape, weight: Int)] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: ":", maxSplits: 1)
            guard let shape = FloodShape(rawValue: String(parts[0])) else {
                throw .usage("unknown shape \(parts[0]) (\(FloodShape.names))")
            }
            let weight = parts.count == 2 ? Int(parts[1]) : 1
            guard let weight, (1...Self.maxWeight).contains(weight) else { throw .usage("bad weight in \(item)") }
            weights.append((shape, weight))
        }
        guard !weights.isEmpty else { throw .usage("--mix names no shape") }
        self.weights = weights
        pattern = weights.flatMap { Array(repeating: $0.shape, count: $0.weight) }
    }

    /// The shape of message `index`.
    func shape(at index: Int) -> FloodShape { pattern[index % pattern.count] }

    /// How many of the first `count` messages take `shape`.
    func count(of shape: FloodShape, in count: Int) -> Int {
        let perPattern = pattern.filter { $0 == shape }.count
        let whole = count / pattern.count * perPattern
        return whole + pattern.prefix(count % pattern.count).filter { $0 == shape }.count
    }

    static func == (lhs: ShapeMix, rhs: ShapeMix) -> Bool { lhs.pattern == rhs.pattern }
}
