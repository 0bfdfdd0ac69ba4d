import Rivulet

/// A login form whose submit control is enabled only while two pieces of state hold: a user name
/// has been typed, and the password has at least eight characters.
///
/// The two text fields are `MutableProperty`s: the UI writes what the user types into them. The
/// rule that enables the control is a `Property<Bool>` derived from both, so it can never be out of
/// date: whenever either field changes, `canSubmit` is recomputed before the write returns. The
/// `submit` action follows the same rule, and is also disabled while a login is running.
public final class LoginForm: Sendable {
    /// What the user typed and the form sends to the server.
    public struct Credentials: Equatable, Sendable {
        /// The user name.
        public var userName: String
        /// The password.
        public var password: String

        /// Credentials made of `userName` and `password`.
        public init(userName: String, password: String) {
            self.userName = userName
            self.password = password
        }

        /// Whether the credentials are worth sending: a user name, and a password of 8+ characters.
        public var areComplete: Bool {
            !userName.isEmpty && password.count >= 8
        }
    }

    /// Why a login failed.
    public enum LoginError: Error, Equatable, Sendable {
        /// The server refused the user name and password.
        case rejected
    }

    /// The user name field.
    public let userName = MutableProperty("")

    /// The password field.
    public let password = MutableProperty("")

    /// Whether the fields hold complete credentials: the state the submit control's enabling
    /// depends on. It changes only when the answer changes (`skipRepeats`).
    public let canSubmit: Property<Bool>

    /// Logs in with the current credentials. Enabled while `canSubmit` is `true` and no login is
    /// running: bind a button's enabled state to `submit.isEnabled`, and its tap to `submit.apply()`.
    /// Its values are the server's greetings.
    public let submit: Action<Void, String, LoginError>

    /// A form that logs in with `logIn`.
    ///
    /// - Parameter logIn: Starts a login request: the producer sends a greeting and completes, or
    ///   fails with `LoginError.rejected`.
    public init(logIn: @escaping @Sendable (Credentials) -> SignalProducer<String, LoginError>) {
        // `combineLatest` pairs the latest user name with the latest password, so the derived
        // property has a value from the start and a new one whenever either field changes.
        let credentials = userName.combineLatest(with: password).map { Credentials(userName: $0, password: $1) }
        canSubmit = credentials.map(\.areComplete).skipRepeats()
        // The action reads the credentials and its enabling condition from the same state, in one
        // atomic step: it can never send credentials that were incomplete.
        submit = Action(state: credentials, enabledIf: \.areComplete) { credentials, _ in
            logIn(credentials)
        }
    }
}
