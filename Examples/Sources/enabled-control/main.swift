import ExampleScenarios
import Rivulet

// A login form whose submit button is enabled only while a user name is typed and the password
// has at least 8 characters, and not while a login is running. The "user" types into the fields;
// the "button" prints its enabled state each time it changes.

let form = LoginForm { credentials in
    // A server that knows one password. It answers at once here; a real request would answer
    // later, and the button would stay disabled until then.
    if credentials.password == "open sesame" {
        return SignalProducer(value: "welcome, \(credentials.userName)")
    }
    return SignalProducer(error: .rejected)
}

// The UI's side: the button follows `submit.isEnabled`, and the action's outcomes are shown.
form.submit.isEnabled.producer.startWithValues { print("  submit button enabled: \($0)") }
form.submit.values.observeValues { print("  server says: \($0)") }
form.submit.errors.observeValues { print("  server says: \($0)") }

func type(_ text: String, into field: MutableProperty<String>, named name: String) {
    print("type \(name): \"\(text)\"")
    field.value = text
}

func tapSubmit() {
    print("tap submit")
    form.submit.apply().startWithFailed { error in
        if error == .disabled { print("  nothing happens: the button is disabled") }
    }
}

tapSubmit()
type("ada", into: form.userName, named: "user name")
type("sesame", into: form.password, named: "password") // 6 characters: not enough
type("sesame!!", into: form.password, named: "password") // 8: the button turns on
tapSubmit() // disabled while the login runs, enabled again when it ends
type("open sesame", into: form.password, named: "password") // still complete: no change
tapSubmit()
type("", into: form.userName, named: "user name")
tapSubmit()
