import MeshProtocol

/// A mesh topology: which nodes link to which, by index. Build one with
/// ``randomGeometric(nodes:side:range:maxLinks:seed:)``, ``randomGeometric(nodes:meanDegree:maxLinks:seed:)``,
/// ``line(nodes:)`` or ``ring(nodes:)`` and connect its edges in a ``MeshSimulator``.
public struct MeshGraph: Sendable {
    /// One link between two nodes; `a < b`.
    public struct Edge: Hashable, Sendable {
        /// The lower node index (it dials, as the central).
        public let a: Int
        /// The higher node index.
        public let b: Int

        /// The link between `a` and `b`, in either order.
        public init(a: Int, b: Int) {
            self.a = min(a, b)
            self.b = max(a, b)
        }
    }

    /// How many nodes the graph has.
    public let nodeCount: Int
    /// Every link, in the order they were made.
    public let edges: [Edge]
    /// The radio range a random geometric graph was made with (0 for lines and rings).
    public let range: Double
    /// Each node's neighbours, sorted.
    public let neighbours: [[Int]]

    /// Creates a graph from its edges.
    public init(nodeCount: Int, edges: [Edge], range: Double = 0) {
        self.nodeCount = nodeCount
        self.edges = edges
        self.range = range
        var neighbours = [[Int]](repeating: [], count: nodeCount)
        for edge in edges {
            neighbours[edge.a].append(edge.b)
            neighbours[edge.b].append(edge.a)
        }
        self.neighbours = neighbours.map { $0.sorted() }
    }

    /// The mean number of links per node.
    public var meanDegree: Double { nodeCount == 0 ? 0 : Double(2 * edges.count) / Double(nodeCount) }

    /// The most links any node has.
    public var maxDegree: Int { neighbours.map(\.count).max() ?? 0 }

    /// Hop distances from `origin` by breadth-first search (nil: not connected).
    public func distances(from origin: Int) -> [Int?] {
        var distance = [Int?](repeating: nil, count: nodeCount)
        distance[origin] = 0
        var frontier = [origin]
        var hops = 0
        while !frontier.isEmpty {
            hops += 1
            var next: [Int] = []
            for node in frontier {
                for neighbour in neighbours[node] where distance[neighbour] == nil {
                    distance[neighbour] = hops
                    next.append(neighbour)
                }
            }
            frontier = next
        }
        return distance
    }

    /// Nodes at 1 to `hops` hops from `origin`.
    public func within(_ hops: Int, of origin: Int) -> [Int] {
        distances(from: origin).enumerated().compactMap { index, distance in
            guard let distance, distance >= 1, distance <= hops else { return nil }
            return index
        }
    }

    /// Nodes in a row, each linked to the next.
    public static func line(nodes count: Int) -> MeshGraph {
        MeshGraph(nodeCount: count, edges: count < 2 ? [] : (0..<(count - 1)).map { Edge(a: $0, b: $0 + 1) })
    }

    /// Nodes in a circle, each linked to the next and the last to the first.
    public static func ring(nodes count: Int) -> MeshGraph {
        guard count >= 3 else { return line(nodes: count) }
        return MeshGraph(nodeCount: count, edges: line(nodes: count).edges + [Edge(a: 0, b: count - 1)])
    }

    /// People spread at random (seeded) over a square floor `side` metres wide, each linking to
    /// those within `range` metres, at most `maxLinks` links each; pairs are considered in index
    /// order, so a node that is full refuses later ones.
    public static func randomGeometric(nodes count: Int, side: Double, range: Double, maxLinks: Int, seed: UInt64) -> MeshGraph {
        var random = SplitMix64(seed: seed)
        let spots = (0..<count).map { _ in
            (Double(random.next() % 10_000) / 10_000 * side, Double(random.next() % 10_000) / 10_000 * side)
        }
        var degree = [Int](repeating: 0, count: count)
        var edges: [Edge] = []
        for a in 0..<count {
            for b in (a + 1)..<count {
                let dx = spots[a].0 - spots[b].0
                let dy = spots[a].1 - spots[b].1
                guard dx * dx + dy * dy < range * range, degree[a] < maxLinks, degree[b] < maxLinks else { continue }
                edges.append(Edge(a: a, b: b))
                degree[a] += 1
                degree[b] += 1
            }
        }
        return MeshGraph(nodeCount: count, edges: edges, range: range)
    }

    /// A random geometric graph at a constant density (one person per 100 m², so the floor grows
    /// with N) whose radio range is found by bisection so the mean degree comes as close to
    /// `meanDegree` as `maxLinks` allows.
    public static func randomGeometric(nodes count: Int, meanDegree target: Double, maxLinks: Int, seed: UInt64) -> MeshGraph {
        let side = (Double(count) * 100).squareRoot()
        var low = 0.0
        var high = side * 1.5
        var best = randomGeometric(nodes: count, side: side, range: high, maxLinks: maxLinks, seed: seed)
        for _ in 0..<40 {
            let middle = (low + high) / 2
            let graph = randomGeometric(nodes: count, side: side, range: middle, maxLinks: maxLinks, seed: seed)
            if abs(graph.meanDegree - target) < abs(best.meanDegree - target) { best = graph }
            if graph.meanDegree < target { low = middle } else { high = middle }
        }
        return best
    }
}
