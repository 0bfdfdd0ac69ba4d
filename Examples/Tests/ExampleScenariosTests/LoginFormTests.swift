import ExampleScenarios
import Rivulet
import Testing

@Suite struct LoginFormTests {
    /// A form whose server accepts any credentials and answers after one (virtual) second, and the
    /// credentials it was sent.
    private static func form(clock: TestScheduler) -> (LoginForm, Atomic<[LoginForm.Credentials]>) {
        let sent = Atomic<[LoginForm.Credentials]>([])
        let form = LoginForm { credentials in
            sent.modify { $0.append(credentials) }
            return SignalProducer(value: "welcome, \(credentials.userName)").delay(1, on: clock)
        }
        return (form, sent)
    }

    @Test func canSubmitHoldsOnlyWithAUserNameAndAPasswordOfEightCharacters() {
        let (form, _) = Self.form(clock: TestScheduler())
        let seen = Atomic<[Bool]>([])
        let reader = form.canSubmit.producer.startWithValues { value in seen.modify { $0.append(value) } }
        defer { reader.dispose() }

        form.password.value = "12345678" // no user name yet
        #expect(!form.canSubmit.value)
        form.userName.value = "ada"
        #expect(form.canSubmit.value)
        form.password.value = "1234567" // one character short
        #expect(!form.canSubmit.value)
        form.password.value = "123456789"
        form.userName.value = "grace" // still complete: no new value
        form.userName.value = ""
        #expect(seen.value == [false, true, false, true, false])
    }

    @Test func submitIsEnabledWithTheFormAndDisabledWhileALoginRuns() {
        let clock = TestScheduler()
        let (form, sent) = Self.form(clock: clock)
        let enabled = Atomic<[Bool]>([])
        let greetings = Atomic<[String]>([])
        let reader = form.submit.isEnabled.producer.startWithValues { value in enabled.modify { $0.append(value) } }
        defer { reader.dispose() }

        form.userName.value = "ada"
        form.password.value = "lovelace"
        form.submit.apply().startWithValues { greeting in greetings.modify { $0.append(greeting) } }
        #expect(form.submit.isExecuting.value)
        #expect(enabled.value == [false, true, false]) // disabled while the login runs

        clock.advance(by: 1)
        #expect(greetings.value == ["welcome, ada"])
        #expect(sent.value == [LoginForm.Credentials(userName: "ada", password: "lovelace")])
        #expect(enabled.value == [false, true, false, true])
    }

    @Test func aSubmitWhileDisabledIsRefusedAndSendsNothing() {
        let clock = TestScheduler()
        let (form, sent) = Self.form(clock: clock)
        let errors = Atomic<[ActionError<LoginForm.LoginError>]>([])
        form.userName.value = "ada"
        form.password.value = "short"
        form.submit.apply().startWithFailed { error in errors.modify { $0.append(error) } }

        form.password.value = "long enough"
        form.submit.apply().start()
        form.submit.apply().startWithFailed { error in errors.modify { $0.append(error) } } // the first still runs
        clock.advance(by: 1)

        #expect(errors.value == [.disabled, .disabled])
        #expect(sent.value.map(\.password) == ["long enough"])
    }

    @Test func aRejectedLoginIsReportedAndEnablesSubmitAgain() {
        let form = LoginForm { _ in SignalProducer(error: .rejected) }
        let errors = Atomic<[LoginForm.LoginError]>([])
        let observer = form.submit.errors.observeValues { error in errors.modify { $0.append(error) } }
        defer { observer?.dispose() }
        form.userName.value = "ada"
        form.password.value = "wrong password"

        form.submit.apply().start()
        #expect(errors.value == [.rejected])
        #expect(form.submit.isEnabled.value)
    }
}
