extension Workload {
    /// The ten workloads of the benchmark issue, in its order, then the ones added since.
    public static let all: [Workload] = [
        .send, .chain, .fanOut, .coldStart, .churn, .combineLatest, .flatMapLatest, .propertySet, .crossThread, .memory,
        .asyncValues,
    ]
}
