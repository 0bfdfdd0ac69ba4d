import RivuletChannels

func readmeChannels() {
    let (thermometer, temperature) = Channel<Double>.create { $0.continuous() }
    thermometer.send(value: 19.5) // nothing listens yet: the multi keeps the latest value
    let display = temperature.subscribeValues { print("display \($0) °C") } // prints: display 19.5 °C
    thermometer.send(value: 20.0)                                           // prints: display 20.0 °C
    display.cancel()

    let (input, _) = Channel<Int>.create() // a plain channel with no output drops what is sent
    print(input.send(value: 1) == .inactive) // prints: true
}
