//! [`RtlError`]: why a co-simulation could not do what was asked (shared by every unit).

use std::fmt;

/// Why the simulation could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RtlError {
    /// Built without Verilator: there is no model to run.
    NotBuilt,
    /// The design did not finish within the harness' cycle limit.
    Hung,
    /// The unit cannot take what it was given (a net that does not fit it).
    Refused(String),
}

impl fmt::Display for RtlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RtlError::NotBuilt => f.write_str("estuary-cosim was built without verilator"),
            RtlError::Hung => f.write_str("the RTL design did not finish"),
            RtlError::Refused(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RtlError {}

impl RtlError {
    /// A harness call's answer read: 1 when the design finished the command, else it hung.
    #[cfg(verilated)]
    pub(crate) fn from_done(done: i32) -> Result<(), RtlError> {
        if done == 1 {
            Ok(())
        } else {
            Err(RtlError::Hung)
        }
    }
}
