//! The engine's searches with evaluation on the co-simulated evaluation unit and move
//! generation on the co-simulated generator, next to the same searches in software with the
//! same net: both must visit the same nodes, and the unit is checked against the reference at
//! every one of them.

use super::{RtlEval, UnitClocks};
use crate::movegen::RtlDevice;
use crate::RtlError;
use chess::{Board, Move};
use device::{
    ChipEval, DeviceStats, EvalStats, Evaluator, HandCraftedEval, Meter, Metered, SoftwareDevice,
};
use eval::chip::ChipNet;
use search::bench::depth_job;
use search::{Event, Listener, ThreadPool};
use std::sync::{Arc, Mutex};

/// A chip net's evaluator with the hand-crafted terms added when the net is hybrid.
pub struct ChipEvaluation<E> {
    unit: E,
    terms: Option<HandCraftedEval>,
}

impl<E: Evaluator> ChipEvaluation<E> {
    /// `unit` running `net`, with the hand-crafted terms added if `net` is hybrid.
    pub fn new(unit: E, net: &ChipNet) -> ChipEvaluation<E> {
        ChipEvaluation {
            unit,
            terms: net.hybrid.then(HandCraftedEval::default),
        }
    }

    /// The unit.
    pub fn unit(&self) -> &E {
        &self.unit
    }
}

impl<E: Evaluator> Evaluator for ChipEvaluation<E> {
    fn load(&mut self, board: &Board) {
        self.unit.load(board);
    }
    fn make(&mut self, m: Move, before: &Board, after: &Board) {
        self.unit.make(m, before, after);
    }
    fn make_null(&mut self) {
        self.unit.make_null();
    }
    fn unmake(&mut self) {
        self.unit.unmake();
    }
    fn evaluate(&mut self, board: &Board) -> i32 {
        let net = self.unit.evaluate(board);
        match &mut self.terms {
            Some(t) => net + t.evaluate(board),
            None => net,
        }
    }
    fn clear(&mut self) {
        self.unit.clear();
        if let Some(t) = &mut self.terms {
            t.clear();
        }
    }
    fn stats(&self) -> EvalStats {
        self.unit.stats()
    }
    fn name(&self) -> &'static str {
        self.unit.name()
    }
}

/// What the evaluation units of a pool have done, shared with the caller.
#[derive(Clone, Debug, Default)]
pub struct UnitReport(Arc<Mutex<(EvalStats, UnitClocks)>>);

impl UnitReport {
    /// The counters and clocks so far.
    pub fn get(&self) -> (EvalStats, UnitClocks) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, stats: EvalStats, clocks: UnitClocks) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = (stats, clocks);
    }
}

/// [`RtlEval`] that publishes its counters to a [`UnitReport`] after every call.
pub struct ReportedRtlEval {
    inner: RtlEval,
    report: UnitReport,
}

impl ReportedRtlEval {
    /// A unit running `net`, reporting to `report`.
    pub fn new(net: Arc<ChipNet>, report: UnitReport) -> Result<ReportedRtlEval, RtlError> {
        Ok(ReportedRtlEval {
            inner: RtlEval::new(net)?,
            report,
        })
    }

    fn publish(&self) {
        self.report.set(self.inner.stats(), self.inner.clocks());
    }
}

impl Evaluator for ReportedRtlEval {
    fn load(&mut self, board: &Board) {
        self.inner.load(board);
        self.publish();
    }
    fn make(&mut self, m: Move, before: &Board, after: &Board) {
        self.inner.make(m, before, after);
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
    fn evaluate(&mut self, board: &Board) -> i32 {
        let s = self.inner.evaluate(board);
        self.publish();
        s
    }
    fn stats(&self) -> EvalStats {
        self.inner.stats()
    }
    fn name(&self) -> &'static str {
        self.inner.name()
    }
}

/// A one-thread pool searching on the co-simulated generator and evaluation unit running
/// `net`; the generator's counters go to `meter`, the unit's to `report`.
pub fn rtl_pool(
    net: Arc<ChipNet>,
    hash_mb: usize,
    meter: Meter,
    report: UnitReport,
) -> Result<ThreadPool, RtlError> {
    if !crate::available() {
        return Err(RtlError::NotBuilt);
    }
    // Refuse a net the unit cannot hold here, before the pool's threads build units.
    hw::evalunit::Image::of(&net).map_err(|e| RtlError::Refused(e.to_string()))?;
    Ok(ThreadPool::with_evaluator(
        1,
        hash_mb,
        move || {
            // Only NotBuilt fails here, and available() was checked above.
            let dev = RtlDevice::new(&Board::startpos()).expect("verilated model present");
            Metered::new(dev, meter.clone())
        },
        move || {
            let unit = ReportedRtlEval::new(net.clone(), report.clone())
                .expect("verilated model present and the net fits");
            ChipEvaluation::new(unit, &net)
        },
    ))
}

/// A one-thread pool searching in software with the same net (the run the RTL must equal).
pub fn software_pool(net: Arc<ChipNet>, hash_mb: usize) -> ThreadPool {
    ThreadPool::with_evaluator(1, hash_mb, SoftwareDevice::default, move || {
        ChipEvaluation::new(ChipEval::new(net.clone()), &net)
    })
}

/// Node counts of the same searches in software and on the co-simulated units, and what the
/// units did.
#[derive(Clone, Debug, Default)]
pub struct EvalComparison {
    /// Nodes of each position's search in software.
    pub software: Vec<u64>,
    /// Nodes of each position's search on the co-simulated units.
    pub rtl: Vec<u64>,
    /// The evaluation unit's counters over all the searches.
    pub eval: EvalStats,
    /// Its clocks per kind of command.
    pub clocks: UnitClocks,
    /// The generator's counters.
    pub movegen: DeviceStats,
}

impl EvalComparison {
    /// True when every search visited as many nodes on the units as in software.
    pub fn equal(&self) -> bool {
        self.software == self.rtl
    }

    /// Nodes of all the RTL searches.
    pub fn rtl_nodes(&self) -> u64 {
        self.rtl.iter().sum()
    }
}

/// Searches each of `positions` to `depth` with one thread and a `hash_mb` table, in software
/// and then on the co-simulated generator and evaluation unit, both running `net` (each table
/// cleared before every search); calls `progress` after each position.
pub fn compare_searches(
    net: Arc<ChipNet>,
    positions: &[Board],
    depth: i32,
    hash_mb: usize,
    mut progress: impl FnMut(&EvalComparison),
) -> Result<EvalComparison, RtlError> {
    let meter = Meter::new();
    let report = UnitReport::default();
    let rtl = rtl_pool(net.clone(), hash_mb, meter.clone(), report.clone())?;
    let sw = software_pool(net, hash_mb);
    let listener: Listener = Arc::new(|_: &Board, _: Event| {});
    let mut c = EvalComparison::default();
    for &start in positions {
        for (pool, nodes) in [(&sw, &mut c.software), (&rtl, &mut c.rtl)] {
            pool.clear();
            pool.search_sync(depth_job(start, depth, &listener, pool.tt()));
            nodes.push(pool.last_nodes());
        }
        (c.eval, c.clocks) = report.get();
        c.movegen = meter.stats();
        progress(&c);
    }
    Ok(c)
}
