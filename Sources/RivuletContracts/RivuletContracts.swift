import Rivulet

/// The contract kit: executable checks of Rivulet's contracts (E1–E7, S1–S5, P1–P4, R1–R4, O1–O7)
/// for operators, schedulers and properties.
///
/// Placeholder: `OperatorContract`, `SchedulerContract`, `PropertyContract` and `ContractReport`
/// arrive with their own issue. Until then Rivulet's own tests check the contracts, by clause ID.
public enum RivuletContracts {
    /// Whether the contract kit's checks are available yet. They are not: see the project's issues.
    public static let isAvailable = false
}
