extension Workload {
    /// The ten workloads, in its order.
    public static let all: [Workload] = [
        .send, .chain, .fanOut, .coldStart, .churn, .combineLatest, .flatMapLatest, .propertySet, .crossThread, .memory,
    ]
}
