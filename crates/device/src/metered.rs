//! [`Metered`]: a device that publishes its backend's traffic counters to a shared [`Meter`].
//!
//! The search builds its devices inside its own threads (`ThreadPool::new` takes a factory)
//! and never hands them back, so a caller that wants a backend's [`DeviceStats`] after a
//! search wraps the backend in [`Metered`] and reads the [`Meter`] it kept a clone of.

use crate::{DeviceStats, MoveGenDevice};
use chess::{Board, GenMode, Move, MoveList, Position};
use std::sync::{Arc, Mutex};

/// A shared copy of a device's counters, readable from any thread.
#[derive(Clone, Debug, Default)]
pub struct Meter(Arc<Mutex<DeviceStats>>);

impl Meter {
    /// A meter reading zero.
    pub fn new() -> Meter {
        Meter::default()
    }

    /// The counters as the device last published them.
    pub fn stats(&self) -> DeviceStats {
        // A writer that panicked mid-copy left a whole DeviceStats behind (plain integers).
        *self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn publish(&self, stats: DeviceStats) {
        *self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = stats;
    }
}

/// Forwards every call to `D` and, after each, copies `D`'s counters into its [`Meter`].
pub struct Metered<D> {
    inner: D,
    meter: Meter,
}

impl<D: MoveGenDevice> Metered<D> {
    /// Wraps `inner`, publishing to `meter` (its counters so far at once).
    pub fn new(inner: D, meter: Meter) -> Metered<D> {
        meter.publish(inner.stats());
        Metered { inner, meter }
    }

    /// The wrapped device.
    pub fn inner(&self) -> &D {
        &self.inner
    }

    fn publish(&self) {
        self.meter.publish(self.inner.stats());
    }
}

impl<D: MoveGenDevice> MoveGenDevice for Metered<D> {
    fn load(&mut self, board: &Board) {
        self.inner.load(board);
        self.publish();
    }
    fn make(&mut self, m: Move) {
        self.inner.make(m);
        self.publish();
    }
    fn make_null(&mut self) {
        self.inner.make_null();
        self.publish();
    }
    fn unmake(&mut self) {
        self.inner.unmake();
        self.publish();
    }
    fn generate(&mut self, mode: GenMode, out: &mut MoveList) {
        self.inner.generate(mode, out);
        self.publish();
    }
    fn in_check(&self) -> bool {
        // Backends may count the status word of an in-check query.
        let r = self.inner.in_check();
        self.publish();
        r
    }
    fn position(&self) -> &Position {
        self.inner.position()
    }
    fn stats(&self) -> DeviceStats {
        self.inner.stats()
    }
    fn name(&self) -> &'static str {
        self.inner.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SoftwareDevice;

    /// The software device counting its makes and generates.
    #[derive(Default)]
    struct Counting {
        dev: SoftwareDevice,
        stats: DeviceStats,
    }

    impl MoveGenDevice for Counting {
        fn load(&mut self, board: &Board) {
            self.dev.load(board);
            self.stats.loads += 1;
        }
        fn make(&mut self, m: Move) {
            self.dev.make(m);
            self.stats.makes += 1;
        }
        fn make_null(&mut self) {
            self.dev.make_null();
        }
        fn unmake(&mut self) {
            self.dev.unmake();
            self.stats.unmakes += 1;
        }
        fn generate(&mut self, mode: GenMode, out: &mut MoveList) {
            self.dev.generate(mode, out);
            self.stats.generates += 1;
            self.stats.moves_out += out.len() as u64;
        }
        fn in_check(&self) -> bool {
            self.dev.in_check()
        }
        fn position(&self) -> &Position {
            self.dev.position()
        }
        fn stats(&self) -> DeviceStats {
            self.stats
        }
        fn name(&self) -> &'static str {
            "counting"
        }
    }

    #[test]
    fn the_meter_reads_the_counters_from_another_thread() {
        let meter = Meter::new();
        let m = meter.clone();
        let name = std::thread::spawn(move || {
            let mut d = Metered::new(Counting::default(), m);
            d.load(&Board::startpos());
            let mut list = MoveList::new();
            d.generate(GenMode::All, &mut list);
            d.make(list[0]);
            d.unmake();
            d.name()
        })
        .join()
        .unwrap();
        assert_eq!(name, "counting");
        let s = meter.stats();
        assert_eq!(
            (s.loads, s.makes, s.unmakes, s.generates, s.moves_out),
            (1, 1, 1, 1, 20)
        );
    }
}
