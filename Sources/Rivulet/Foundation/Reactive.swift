/// The namespace for Rivulet's extensions of existing types: `center.reactive.notifications(…)`.
public struct Reactive<Base> {
    /// The extended value.
    public let base: Base

    /// Wraps `base` to reach its reactive extensions.
    ///
    /// - Parameter base: The object or value whose extensions to reach.
    public init(_ base: Base) {
        self.base = base
    }
}

/// A type whose instances offer reactive extensions through `reactive`.
public protocol ReactiveExtensionsProvider {}

extension ReactiveExtensionsProvider {
    /// The reactive extensions of this value.
    public var reactive: Reactive<Self> {
        Reactive(self)
    }

    /// The reactive extensions of this type.
    public static var reactive: Reactive<Self>.Type {
        Reactive<Self>.self
    }
}
