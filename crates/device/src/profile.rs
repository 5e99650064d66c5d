//! Where the search's time goes, unit by unit: the probe the search and the device wrappers
//! report to, for `estuary profile` (the design review's profile redone on our engine).
//!
//! Time is read from the CPU's time-stamp counter (x86_64; `Instant` elsewhere) at the start
//! and end of every call into a unit, and charged *exclusively*: when a unit calls another
//! (the move picker calls the generator), the inner call's time is taken out of the outer
//! one's. Whatever runs outside every section is the search's own bookkeeping ("rest").
//! The search is generic over its [`Probe`]; with [`NoProbe`] every call is empty and
//! compiles away, so the normal engine pays nothing.

use crate::{DeviceStats, EvalStats, Evaluator, MoveGenDevice};
use chess::{Board, GenMode, Move, MoveList, Position};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// How many sections there are.
pub const SECTIONS: usize = 9;

/// A unit of the search that a profile times.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Section {
    /// Legal move generation (the move generator's `generate`).
    MoveGen,
    /// Make, unmake and null move on the board (incremental hash, checkers and pins).
    MakeUnmake,
    /// Check and attack detection outside the generator: in-check, gives-check, static
    /// exchange evaluation.
    Attacks,
    /// Evaluation: the network's accumulator updates on make / unmake.
    EvalUpdate,
    /// Evaluation: the network's output layer.
    EvalOutput,
    /// Evaluation: the hand-crafted terms.
    EvalTerms,
    /// Evaluation: the search's drawish-endgame scaling of the evaluator's score.
    EvalScaling,
    /// Transposition table probes and stores.
    Tt,
    /// Move ordering: the staged picker (less the generation it calls) and history updates.
    Ordering,
}

impl Section {
    /// Every section, in report order.
    pub const ALL: [Section; SECTIONS] = [
        Section::MoveGen,
        Section::MakeUnmake,
        Section::Attacks,
        Section::EvalUpdate,
        Section::EvalOutput,
        Section::EvalTerms,
        Section::EvalScaling,
        Section::Tt,
        Section::Ordering,
    ];

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Section::MoveGen => "move generation",
            Section::MakeUnmake => "make/unmake",
            Section::Attacks => "check/attack detection",
            Section::EvalUpdate => "eval: accumulator updates",
            Section::EvalOutput => "eval: output layer",
            Section::EvalTerms => "eval: hand-crafted terms",
            Section::EvalScaling => "eval: drawish scaling",
            Section::Tt => "transposition table",
            Section::Ordering => "move ordering",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// What the search and its devices call at the start and end of a unit's work.
pub trait Probe {
    /// A call into `section` starts.
    fn begin(&self, section: Section);
    /// The innermost section begun ends.
    fn end(&self);
}

/// The probe of a normal search: does nothing, costs nothing.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoProbe;

impl Probe for NoProbe {
    #[inline(always)]
    fn begin(&self, _section: Section) {}
    #[inline(always)]
    fn end(&self) {}
}

/// Sections nest at most this deep (picker -> generator is 2; search -> eval -> net is 3).
const MAX_NEST: usize = 8;

/// The CPU's time-stamp counter, or nanoseconds since the first call where there is none.
#[inline(always)]
pub fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC exists on every x86_64 CPU and has no memory effects.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        EPOCH
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_nanos() as u64
    }
}

/// The counters of a [`Profiler`], shared by the search and its devices. One thread writes
/// them (relaxed loads and stores, plain moves on x86), any thread may read them afterwards.
#[derive(Default)]
struct Counters {
    /// Exclusive ticks per section.
    ticks: [AtomicU64; SECTIONS],
    /// Calls per section.
    calls: [AtomicU64; SECTIONS],
    /// The open sections: index and the tick their current stretch started at.
    open: [AtomicU64; MAX_NEST],
    open_section: [AtomicUsize; MAX_NEST],
    depth: AtomicUsize,
}

/// A probe that charges time to sections. Cheap to clone (the counters are shared), so the
/// search and both devices of one thread hold the same one.
#[derive(Clone, Default)]
pub struct Profiler {
    c: Arc<Counters>,
}

/// A profile's raw figures: ticks and calls per section.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SectionTimes {
    /// Exclusive ticks per section (indexed as [`Section::ALL`]).
    pub ticks: [u64; SECTIONS],
    /// Calls per section.
    pub calls: [u64; SECTIONS],
}

impl SectionTimes {
    /// Ticks of `s`.
    pub fn ticks_of(&self, s: Section) -> u64 {
        self.ticks[s.index()]
    }
    /// Calls of `s`.
    pub fn calls_of(&self, s: Section) -> u64 {
        self.calls[s.index()]
    }
    /// Probe pairs (begin + end) made, one a call: the method's own cost is about this many
    /// times [`probe_pair_ticks`].
    pub fn pairs(&self) -> u64 {
        self.calls.iter().sum()
    }
}

impl Profiler {
    /// A profiler with every counter at zero.
    pub fn new() -> Profiler {
        Profiler::default()
    }

    /// The figures so far.
    pub fn times(&self) -> SectionTimes {
        let mut t = SectionTimes::default();
        for i in 0..SECTIONS {
            t.ticks[i] = self.c.ticks[i].load(Relaxed);
            t.calls[i] = self.c.calls[i].load(Relaxed);
        }
        t
    }

    /// Sets every counter back to zero.
    pub fn reset(&self) {
        for i in 0..SECTIONS {
            self.c.ticks[i].store(0, Relaxed);
            self.c.calls[i].store(0, Relaxed);
        }
        self.c.depth.store(0, Relaxed);
    }

    #[inline(always)]
    fn charge(&self, slot: usize, now: u64) {
        let s = self.c.open_section[slot].load(Relaxed);
        let t = &self.c.ticks[s];
        t.store(
            t.load(Relaxed) + now.wrapping_sub(self.c.open[slot].load(Relaxed)),
            Relaxed,
        );
    }
}

impl Probe for Profiler {
    #[inline(always)]
    fn begin(&self, section: Section) {
        self.begin_at(section, ticks())
    }

    #[inline(always)]
    fn end(&self) {
        self.end_at(ticks())
    }
}

impl Profiler {
    /// [`Probe::begin`] at tick `now` (the tests give their own clock).
    #[inline(always)]
    fn begin_at(&self, section: Section, now: u64) {
        let d = self.c.depth.load(Relaxed);
        if d > 0 && d <= MAX_NEST {
            // The enclosing section pauses.
            self.charge(d - 1, now);
        }
        if d < MAX_NEST {
            self.c.open_section[d].store(section.index(), Relaxed);
            self.c.open[d].store(now, Relaxed);
        }
        self.c.depth.store(d + 1, Relaxed);
    }

    /// [`Probe::end`] at tick `now`.
    #[inline(always)]
    fn end_at(&self, now: u64) {
        let d = self.c.depth.load(Relaxed);
        if d == 0 {
            return;
        }
        let slot = d - 1;
        if slot < MAX_NEST {
            self.charge(slot, now);
            let s = self.c.open_section[slot].load(Relaxed);
            let calls = &self.c.calls[s];
            calls.store(calls.load(Relaxed) + 1, Relaxed);
        }
        self.c.depth.store(slot, Relaxed);
        if slot > 0 && slot <= MAX_NEST {
            // The enclosing section resumes.
            self.c.open[slot - 1].store(now, Relaxed);
        }
    }
}

/// Ticks one begin/end pair of a [`Profiler`] costs on this machine (the median of several
/// timed loops), to state and subtract the method's own overhead.
pub fn probe_pair_ticks() -> f64 {
    let p = Profiler::new();
    let mut runs = Vec::new();
    for _ in 0..7 {
        const N: u64 = 200_000;
        let t0 = ticks();
        for _ in 0..N {
            p.begin(Section::Ordering);
            p.begin(Section::MoveGen);
            p.end();
            p.end();
        }
        runs.push((ticks() - t0) as f64 / (2 * N) as f64);
    }
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2]
}

/// A move generator whose calls are timed: generation, make/unmake, in-check.
pub struct ProfiledDevice<D, P> {
    inner: D,
    probe: P,
}

impl<D, P> ProfiledDevice<D, P> {
    /// `inner`, reporting to `probe`.
    pub fn new(inner: D, probe: P) -> Self {
        ProfiledDevice { inner, probe }
    }
}

impl<D: MoveGenDevice, P: Probe> MoveGenDevice for ProfiledDevice<D, P> {
    fn load(&mut self, board: &Board) {
        self.inner.load(board)
    }
    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.probe.begin(Section::MakeUnmake);
        self.inner.make(m);
        self.probe.end();
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.probe.begin(Section::MakeUnmake);
        self.inner.make_null();
        self.probe.end();
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.probe.begin(Section::MakeUnmake);
        self.inner.unmake();
        self.probe.end();
    }
    #[inline(always)]
    fn generate(&mut self, mode: GenMode, out: &mut MoveList) {
        self.probe.begin(Section::MoveGen);
        self.inner.generate(mode, out);
        self.probe.end();
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        self.probe.begin(Section::Attacks);
        let c = self.inner.in_check();
        self.probe.end();
        c
    }
    #[inline(always)]
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

/// An evaluator whose calls are timed: its make / null / unmake as accumulator updates (when
/// `updates` is set), its evaluate as `section`.
pub struct ProfiledEval<E, P> {
    inner: E,
    probe: P,
    section: Section,
    updates: bool,
}

impl<E, P> ProfiledEval<E, P> {
    /// `inner`, reporting its evaluations as `section` and, if `updates`, its make / unmake
    /// as [`Section::EvalUpdate`].
    pub fn new(inner: E, probe: P, section: Section, updates: bool) -> Self {
        ProfiledEval {
            inner,
            probe,
            section,
            updates,
        }
    }
}

impl<E: Evaluator, P: Probe> Evaluator for ProfiledEval<E, P> {
    fn load(&mut self, board: &Board) {
        self.inner.load(board)
    }
    #[inline(always)]
    fn make(&mut self, m: Move, before: &Board, after: &Board) {
        if self.updates {
            self.probe.begin(Section::EvalUpdate);
            self.inner.make(m, before, after);
            self.probe.end();
        } else {
            self.inner.make(m, before, after);
        }
    }
    #[inline(always)]
    fn make_null(&mut self) {
        if self.updates {
            self.probe.begin(Section::EvalUpdate);
            self.inner.make_null();
            self.probe.end();
        } else {
            self.inner.make_null();
        }
    }
    #[inline(always)]
    fn unmake(&mut self) {
        if self.updates {
            self.probe.begin(Section::EvalUpdate);
            self.inner.unmake();
            self.probe.end();
        } else {
            self.inner.unmake();
        }
    }
    #[inline(always)]
    fn evaluate(&mut self, board: &Board) -> i32 {
        self.probe.begin(self.section);
        let v = self.inner.evaluate(board);
        self.probe.end();
        v
    }
    fn set_network(&mut self, net: Option<eval::Net>) {
        self.inner.set_network(net)
    }
    fn clear(&mut self) {
        self.inner.clear()
    }
    fn stats(&self) -> EvalStats {
        self.inner.stats()
    }
    fn name(&self) -> &'static str {
        self.inner.name()
    }
}

/// What one kind of device call spent: calls, device clocks, bus words.
#[derive(Default)]
pub struct CallCost {
    calls: AtomicU64,
    cycles: AtomicU64,
    words: AtomicU64,
}

impl CallCost {
    /// Calls counted.
    pub fn calls(&self) -> u64 {
        self.calls.load(Relaxed)
    }
    /// Device clocks per call.
    pub fn clocks_per_call(&self) -> f64 {
        self.cycles.load(Relaxed) as f64 / self.calls().max(1) as f64
    }
    /// Bus words per call.
    pub fn words_per_call(&self) -> f64 {
        self.words.load(Relaxed) as f64 / self.calls().max(1) as f64
    }

    /// Charges one call that took the device from `before` to `after`.
    fn charge(&self, before: DeviceStats, after: DeviceStats) {
        self.calls.fetch_add(1, Relaxed);
        self.cycles.fetch_add(after.cycles - before.cycles, Relaxed);
        self.words.fetch_add(after.words - before.words, Relaxed);
    }
}

/// Device clocks and bus words spent per kind of call, as a [`CostMeter`] counts them.
#[derive(Default)]
pub struct CallCosts {
    /// make / make_null / unmake.
    pub updates: CallCost,
    /// generate.
    pub generates: CallCost,
    /// in-check queries (a status word on the bus).
    pub checks: CallCost,
}

/// A move generator whose device clocks and bus words (from its [`DeviceStats`]) are charged
/// to the kind of call that spent them, for the clocks-per-call figures of Amdahl's law.
pub struct CostMeter<D> {
    inner: D,
    costs: Arc<CallCosts>,
}

impl<D: MoveGenDevice> CostMeter<D> {
    /// `inner`, counting into `costs`.
    pub fn new(inner: D, costs: Arc<CallCosts>) -> Self {
        CostMeter { inner, costs }
    }

    /// Runs `f` on the device and charges what it spent to `cost`.
    fn charged<T>(&mut self, cost: fn(&CallCosts) -> &CallCost, f: impl FnOnce(&mut D) -> T) -> T {
        let before = self.inner.stats();
        let v = f(&mut self.inner);
        cost(&self.costs).charge(before, self.inner.stats());
        v
    }
}

impl<D: MoveGenDevice> MoveGenDevice for CostMeter<D> {
    fn load(&mut self, board: &Board) {
        self.inner.load(board)
    }
    fn make(&mut self, m: Move) {
        self.charged(|c| &c.updates, |d| d.make(m))
    }
    fn make_null(&mut self) {
        self.charged(|c| &c.updates, |d| d.make_null())
    }
    fn unmake(&mut self) {
        self.charged(|c| &c.updates, |d| d.unmake())
    }
    fn generate(&mut self, mode: GenMode, out: &mut MoveList) {
        self.charged(|c| &c.generates, |d| d.generate(mode, out))
    }
    fn in_check(&self) -> bool {
        let before = self.inner.stats();
        let c = self.inner.in_check();
        self.costs.checks.charge(before, self.inner.stats());
        c
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

    #[test]
    fn nested_time_is_charged_to_the_inner_section_only() {
        // An explicit clock: ordering opens at 100, move generation runs 130..330, ordering
        // closes at 350. Ordering's own time is 30 + 20, move generation's 200.
        let p = Profiler::new();
        p.begin_at(Section::Ordering, 100);
        p.begin_at(Section::MoveGen, 130);
        p.end_at(330);
        p.end_at(350);
        let t = p.times();
        assert_eq!(t.calls_of(Section::Ordering), 1);
        assert_eq!(t.calls_of(Section::MoveGen), 1);
        assert_eq!(t.ticks_of(Section::Ordering), 50);
        assert_eq!(t.ticks_of(Section::MoveGen), 200);
        assert_eq!(t.ticks_of(Section::Tt), 0);
        // A second call of the inner section adds to its total; an unmatched end is ignored.
        p.begin_at(Section::MoveGen, 400);
        p.end_at(410);
        p.end_at(500);
        let t = p.times();
        assert_eq!(t.ticks_of(Section::MoveGen), 210);
        assert_eq!(t.calls_of(Section::MoveGen), 2);
        assert_eq!(t.pairs(), 3);
        p.reset();
        assert_eq!(p.times(), SectionTimes::default());
    }

    #[test]
    fn the_probe_reads_the_real_clock() {
        let p = Profiler::new();
        p.begin(Section::EvalOutput);
        let x = (0..10_000u64).fold(1u64, |x, i| std::hint::black_box(x.wrapping_mul(31) ^ i));
        std::hint::black_box(x);
        p.end();
        assert_eq!(p.times().calls_of(Section::EvalOutput), 1);
        assert!(p.times().ticks_of(Section::EvalOutput) > 0);
    }

    /// The software generator with a bus: one word a make or query, three a generate.
    #[derive(Default)]
    struct Bused {
        dev: crate::SoftwareDevice,
        words: std::cell::Cell<u64>,
    }

    impl MoveGenDevice for Bused {
        fn load(&mut self, board: &Board) {
            self.dev.load(board)
        }
        fn make(&mut self, m: Move) {
            self.words.set(self.words.get() + 1);
            self.dev.make(m)
        }
        fn make_null(&mut self) {
            self.words.set(self.words.get() + 1);
            self.dev.make_null()
        }
        fn unmake(&mut self) {
            self.words.set(self.words.get() + 1);
            self.dev.unmake()
        }
        fn generate(&mut self, mode: GenMode, out: &mut MoveList) {
            self.words.set(self.words.get() + 3);
            self.dev.generate(mode, out)
        }
        fn in_check(&self) -> bool {
            self.words.set(self.words.get() + 1);
            self.dev.in_check()
        }
        fn position(&self) -> &Position {
            self.dev.position()
        }
        fn stats(&self) -> DeviceStats {
            DeviceStats {
                words: self.words.get(),
                ..DeviceStats::default()
            }
        }
        fn name(&self) -> &'static str {
            "bused"
        }
    }

    #[test]
    fn the_cost_meter_charges_each_kind_of_call_its_own_words() {
        let costs = Arc::new(CallCosts::default());
        let mut d = CostMeter::new(Bused::default(), costs.clone());
        let mut list = MoveList::new();
        d.generate(GenMode::All, &mut list);
        d.make(list[0]);
        assert!(!d.in_check());
        assert!(!d.in_check());
        d.unmake();
        assert_eq!(costs.generates.calls(), 1);
        assert_eq!(costs.generates.words_per_call(), 3.0);
        assert_eq!(costs.updates.calls(), 2);
        assert_eq!(costs.updates.words_per_call(), 1.0);
        assert_eq!(costs.checks.calls(), 2);
        assert_eq!(costs.checks.words_per_call(), 1.0);
    }

    #[test]
    fn profiled_devices_give_the_same_answers() {
        let p = Profiler::new();
        let pos = Position::startpos();
        let mut d = ProfiledDevice::new(crate::SoftwareDevice::new(pos.board()), p.clone());
        let mut list = MoveList::new();
        d.generate(GenMode::All, &mut list);
        assert_eq!(list.len(), 20);
        d.make(list[0]);
        assert!(!d.in_check());
        d.unmake();
        let t = p.times();
        assert_eq!(t.calls_of(Section::MoveGen), 1);
        assert_eq!(t.calls_of(Section::MakeUnmake), 2);
        assert_eq!(t.calls_of(Section::Attacks), 1);
        assert!(probe_pair_ticks() > 0.0);
    }
}
