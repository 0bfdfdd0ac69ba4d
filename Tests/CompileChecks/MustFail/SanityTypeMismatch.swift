// Sanity case for the harness itself: a plain type error must be reported, so that a broken
// harness (a wrong flag, a missing module) shows up as a failure instead of passing silently.
// expected-error: cannot convert value of type 'String' to specified type 'Int'

import Rivulet

func sanityTypeMismatch() -> Int {
    let x: Int = "a"
    return x
}
