// Sound pattern, and the workaround for swiftlang/swift#80146 (Swift 6.3, Swift 6 mode): a static
// combining operator called on the type spelled with its generic arguments, or its instance form.
// `SignalProducer.combineLatest(a, b)` on the unbound type does not infer `Value` there.

import Rivulet

func totals(_ a: SignalProducer<Int, Never>, _ b: SignalProducer<Int, Never>) -> SignalProducer<Int, Never> {
    SignalProducer<Int, Never>.combineLatest(a, b).map { $0 + $1 }
}

func pairs(_ a: Signal<Int, Never>, _ b: Signal<String, Never>) -> Signal<(Int, String), Never> {
    a.combineLatest(with: b)
}

func everyName(_ names: [Property<String>]) -> Property<[String]>? {
    Property<String>.combineLatest(names)
}
