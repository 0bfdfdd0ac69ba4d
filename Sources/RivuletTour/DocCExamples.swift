import Rivulet

// The samples of the DocC catalogs' own pages (Sources/<Module>/<Module>.docc); the guides they
// link to are the files in Docs/, whose samples live in the other files of the tour.

func doccRivuletLandingExample() {
    let (temperatures, input) = Signal<Double, Never>.pipe()
    let disposable = temperatures.observeValues { print("now \($0) °C") }
    input.send(value: 21.5)
    disposable?.dispose()
}
