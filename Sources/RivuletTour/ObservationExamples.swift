import Observation
import Rivulet

/// The person of the Observation bridge sample, isolated to the main actor as SwiftUI models are.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
@MainActor
@Observable
final class ObservedPerson {
    var firstName = "Ada"
    var lastName = "Lovelace"
}

/// Docs: the Observation bridges. The tour runs on the main thread, so it is on the main actor.
func concurrencyObservationBridges() {
    guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *) else { return }
    MainActor.assumeIsolated {
        let person = ObservedPerson()
        let fullName = Property(trackingOnMainActor: { person.firstName + " " + person.lastName })
        print(fullName.value) // prints: Ada Lovelace
        person.lastName = "Byron" // fullName becomes "Ada Byron" on a later turn of the main actor
        let volume = MutableProperty(3)
        let forSwiftUI = ObservableProperty(volume, on: UIScheduler()) // read forSwiftUI.value in a body
        withExtendedLifetime((fullName, forSwiftUI)) {}
    }
}
