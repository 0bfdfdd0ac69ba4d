precedencegroup BindingPrecedence {
    associativity: right
    // Binds tighter than `=`, so `let disposable = target <~ source` works.
    higherThan: AssignmentPrecedence
}

/// Binds a source's values to a target: `target <~ source`.
infix operator <~ : BindingPrecedence

extension BindingTargetProvider {
    /// Sends every value of `source` to `target`, from now until the target's lifetime or the
    /// source ends.
    ///
    /// For a property source, the binding sets the target to the property's current value at once.
    ///
    /// - Parameters:
    ///   - target: Where the values go; the binding ends when its lifetime does.
    ///   - source: A signal, producer or property of values; a producer is started once, now.
    /// - Returns: A disposable that ends the binding early, or `nil` if the target's lifetime had
    ///   already ended (nothing is bound then).
    @discardableResult
    public static func <~ <Source: BindingSource>(target: Self, source: Source) -> Disposable?
    where Source.Value == Value {
        bind(source.producer, to: target.bindingTarget)
    }

    /// Sends every value of `source` to an optional `target`, as `<~` does for non-optional ones.
    ///
    /// - Parameters:
    ///   - target: Where the values go, wrapped; the binding ends when its lifetime does.
    ///   - source: A signal, producer or property of values; a producer is started once, now.
    /// - Returns: A disposable that ends the binding early, or `nil` if the target's lifetime had
    ///   already ended.
    @discardableResult
    public static func <~ <Source: BindingSource>(target: Self, source: Source) -> Disposable?
    where Value == Source.Value? {
        bind(source.producer.map(Optional.some), to: target.bindingTarget)
    }
}

extension Signal.Observer {
    /// Sends every value of `source` to the observer, until the source ends or the observer is
    /// released: the binding holds the observer weakly, as a binding to a target does.
    ///
    /// - Parameters:
    ///   - observer: Receives the values; held weakly.
    ///   - source: A signal, producer or property of values; a producer is started once, now.
    /// - Returns: A disposable that ends the binding early.
    @discardableResult
    public static func <~ <Source: BindingSource>(observer: Signal<Value, Error>.Observer, source: Source) -> Disposable
    where Source.Value == Value {
        source.producer.start(.values { [weak observer] value in observer?.send(value: value) })
    }
}

/// Starts `producer` into `target` for the target's lifetime.
private func bind<Value>(_ producer: SignalProducer<Value, Never>, to target: BindingTarget<Value>) -> Disposable? {
    guard !target.lifetime.hasEnded else { return nil }
    return
        producer
        .take(during: target.lifetime)
        .start(.values(target.action))
}
