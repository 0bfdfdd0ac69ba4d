/// A type that is an `Optional`: lets an operator or initialiser be declared for optional values
/// only (for example `Property(initial:then:)` from a stream of non-optional values).
public protocol OptionalProtocol<Wrapped> {
    /// The type of the value the optional may hold.
    associatedtype Wrapped

    /// The value as an `Optional`.
    var optional: Wrapped? { get }

    /// The optional holding `value`.
    ///
    /// - Parameter value: The optional to return.
    init(reconstructing value: Wrapped?)
}

extension Optional: OptionalProtocol {
    /// The optional itself.
    public var optional: Wrapped? { self }

    /// `value` itself.
    ///
    /// - Parameter value: The optional to return.
    public init(reconstructing value: Wrapped?) {
        self = value
    }
}
