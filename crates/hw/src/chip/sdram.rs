//! The transposition table in an SDRAM: the clocks of its controller (hw/chip/sdram_tt.v),
//! operation by operation, so that the model's searches on the SDRAM table take the RTL's
//! clocks exactly (`crates/cosim/tests/search_core.rs` holds them equal, the harness playing
//! a datasheet-checked SDRAM chip).
//!
//! The controller serves one operation at a time: a refresh when one is due, else the write
//! waiting in its slot, else the read waiting in its slot. A read request replaces a read
//! not yet started; a write is posted only while the write slot is empty. Refreshes are due
//! at the GO and every [`REFI`] clocks after it. All times here are the sequencer's clock
//! (`now`, [`super::LOAD_CLOCKS`] in the clock after the GO).

/// ACT to READ or WRITE (tRCD), in clocks.
pub const T_RCD: u64 = 2;
/// The CAS latency.
pub const CL: u64 = 3;
/// Precharge to ACT (tRP).
pub const T_RP: u64 = 2;
/// A write's last word to its precharge (tWR).
pub const T_WR: u64 = 2;
/// A refresh to the next command (tRFC).
pub const T_RFC: u64 = 7;
/// Clocks between refreshes: 7.8 us at 100 MHz.
pub const REFI: u64 = 780;
/// Words of a burst: one 64-bit entry in 16-bit words.
pub const BURST: u64 = 4;
/// Clocks from taking a read to the FSM's next operation: the bank precharged again.
pub const READ_CYCLE: u64 = T_RCD + CL + BURST + T_RP;
/// Clocks from taking a write to the FSM's next operation (tWR and tRP after the burst).
pub const WRITE_CYCLE: u64 = T_RCD + BURST + T_WR + T_RP;
/// Clocks from taking a read to the sequencer's verdict on its entry: the ACT on the pins,
/// tRCD, CL, the four words, the valid register, then the entry's two registers in the
/// sequencer (as after a block-RAM read).
pub const READ_READY: u64 = 1 + T_RCD + CL + BURST + 1 + 2;
/// Entries of the table: 32 MB of 8-byte entries.
pub const ENTRIES: usize = 1 << 22;

/// The controller's state as the model needs it.
#[derive(Clone, Debug)]
pub struct Controller {
    /// The first clock the controller can take an operation.
    idle_at: u64,
    /// The clock the next refresh is due from.
    ref_due: u64,
    /// The waiting read: the first clock it can be taken.
    read: Option<u64>,
    /// The waiting write, likewise.
    write: Option<u64>,
    /// The first clock a write may be posted (its slot empty).
    write_free: u64,
    /// The clock of the verdict on the last read taken.
    read_ready: u64,
}

impl Controller {
    /// The controller at a GO: idle, a refresh due in the first clock of the search.
    pub fn at_go(first: u64) -> Controller {
        Controller {
            idle_at: 0,
            ref_due: first,
            read: None,
            write: None,
            write_free: 0,
            read_ready: 0,
        }
    }

    /// The clock the next operation starts, and whether there is one before `limit`.
    fn next(&self, limit: u64) -> Option<u64> {
        let mut c = self.idle_at.max(self.ref_due);
        for w in [self.write, self.read].into_iter().flatten() {
            c = c.min(self.idle_at.max(w));
        }
        (c < limit).then_some(c)
    }

    /// Takes the operations that start before `limit`, in the controller's order.
    fn run_until(&mut self, limit: u64) {
        while let Some(c) = self.next(limit) {
            self.take(c);
        }
    }

    /// Takes the next operation (the controller always has one: a refresh comes due).
    fn step(&mut self) {
        if let Some(c) = self.next(u64::MAX) {
            self.take(c);
        }
    }

    /// Takes the operation that starts in clock `c`.
    fn take(&mut self, c: u64) {
        if self.ref_due <= c {
            self.idle_at = c + T_RFC;
            self.ref_due += REFI;
        } else if self.write.is_some_and(|w| w <= c) {
            self.write = None;
            self.write_free = c + 1;
            self.idle_at = c + WRITE_CYCLE;
        } else {
            self.read = None;
            self.read_ready = c + READ_READY;
            self.idle_at = c + READ_CYCLE;
        }
    }

    /// A read asked for in clock `at` (two clocks after the make: the hash's clock).
    pub fn request_read(&mut self, at: u64) {
        self.run_until(at + 1);
        self.read = Some(at + 1);
    }

    /// The clock of the sequencer's verdict on the entry of the last read asked for.
    pub fn read_ready(&mut self) -> u64 {
        while self.read.is_some() {
            self.step();
        }
        self.read_ready
    }

    /// A write at a node's end, reached in clock `at`: the clock it is posted in (the
    /// sequencer waits there while the slot holds an earlier write).
    pub fn post_write(&mut self, at: u64) -> u64 {
        while self.write.is_some() {
            self.step();
        }
        let post = at.max(self.write_free);
        self.write = Some(post + 1);
        post
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_on_an_idle_controller_takes_its_fixed_clocks() {
        let mut c = Controller::at_go(94);
        // The GO's refresh first, then a read asked for well after it.
        c.request_read(200);
        assert_eq!(c.read_ready(), 201 + READ_READY);
    }

    #[test]
    fn a_read_waits_for_the_refresh_and_the_write_before_it() {
        let mut c = Controller::at_go(94);
        // A write posted in clock 100 is taken in 101 (the GO's refresh is done by 101).
        assert_eq!(c.post_write(100), 100);
        // A read asked for in 102 waits for the write's cycle.
        c.request_read(102);
        assert_eq!(c.read_ready(), 101 + WRITE_CYCLE + READ_READY);
        // A second write waits for the slot only, not for the first write's end.
        let mut d = Controller::at_go(94);
        assert_eq!(d.post_write(94), 94);
        // The refresh due in 94 goes first (94..101), so the write is taken in 101.
        assert_eq!(d.post_write(96), 102);
    }

    #[test]
    fn a_newer_read_replaces_one_not_yet_started() {
        let mut c = Controller::at_go(94);
        assert_eq!(c.post_write(120), 120);
        c.request_read(121); // waits behind the write taken in 121
        c.request_read(125); // replaces it: the write's cycle is not over
        assert_eq!(c.read_ready(), 121 + WRITE_CYCLE + READ_READY);
    }

    #[test]
    fn refreshes_fall_every_refi_clocks_from_the_go() {
        let mut c = Controller::at_go(94);
        c.request_read(94 + REFI - 1); // taken in 94 + REFI: the refresh due then goes first
        assert_eq!(c.read_ready(), 94 + REFI + T_RFC + READ_READY);
    }
}
