//! What every co-simulation test starts with.

/// False (test skipped) when the crate was built without Verilator; under CI=true or
/// ESTUARY_REQUIRE_RTL=1 (.ci/run) that is a failure instead, so CI cannot pass silently.
pub fn simulator_present() -> bool {
    if cosim::available() {
        return true;
    }
    if required() {
        panic!("verilator not installed, but CI=true or ESTUARY_REQUIRE_RTL=1: the RTL co-simulation must run");
    }
    eprintln!("skipped: verilator not installed");
    false
}

/// True under CI=true or ESTUARY_REQUIRE_RTL=1: what the tests need must be there.
pub fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("ESTUARY_REQUIRE_RTL").is_ok_and(|v| v == "1")
}
