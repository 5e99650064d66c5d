//! The design review's profile redone on our engine: the share of search time each unit takes
//! (move generation, make/unmake, check and attack detection, the three parts of the
//! evaluation, the transposition table, move ordering, the rest), for `estuary profile`.
//!
//! Method: the same searches run twice on fresh single-thread pools, once plain and once with
//! every call into a unit timed by a [`Profiler`] (time-stamp counter, exclusive time: a unit
//! called from another is charged to itself only). The profiled run must search exactly the
//! plain run's nodes. The method's cost is stated two ways: the profiled run's extra wall time,
//! and the calibrated cost of one probe pair times the pairs made; the section figures have
//! the calibrated cost taken out (half a pair falls inside the section timed, half outside).

use crate::bench::job;
use crate::{Event, Limits, Listener, ThreadPool};
use chess::Board;
use device::profile::{
    probe_pair_ticks, ticks, CallCosts, CostMeter, ProfiledDevice, ProfiledEval, Profiler, Section,
    SectionTimes,
};
use device::{
    ChipEval, Evaluator, HandCraftedEval, HybridEval, MoveGenDevice, NnueEval, SoftwareDevice,
};
use eval::Net;
use std::sync::Arc;
use std::time::Instant;

/// What to profile.
#[derive(Clone)]
pub struct ProfileSpec {
    /// The positions searched, one search each from a fresh table.
    pub positions: Vec<Board>,
    /// The limits of every search (a depth or a node count: the run must be deterministic).
    pub limits: Limits,
    /// Table size in MB.
    pub hash_mb: usize,
    /// The network evaluated with (`None`: the hand-crafted evaluation).
    pub net: Option<Net>,
}

/// A profile's figures.
#[derive(Clone, Debug)]
pub struct Profile {
    /// Nodes searched (the same in the plain and the profiled runs).
    pub nodes: u64,
    /// Wall time of the plain run (the faster of two, before and after the profiled one), ns.
    pub plain_ns: u64,
    /// Wall time of the profiled run, ns.
    pub profiled_ns: u64,
    /// Time-stamp ticks of the profiled run's searches.
    pub total_ticks: u64,
    /// Raw ticks and calls per section.
    pub times: SectionTimes,
    /// Calibrated ticks of one probe pair.
    pub pair_ticks: f64,
    /// Nanoseconds per tick.
    pub ns_per_tick: f64,
    /// The evaluation profiled (`hand-crafted`, `nnue`, `hybrid`).
    pub evaluator: &'static str,
}

impl Profile {
    /// Ticks of the searches without the probes' own cost.
    pub fn search_ticks(&self) -> f64 {
        (self.total_ticks as f64 - self.times.pairs() as f64 * self.pair_ticks).max(1.0)
    }

    /// Ticks charged to `s`, less the probes' cost inside it.
    pub fn ticks_of(&self, s: Section) -> f64 {
        let calls = self.times.calls_of(s) as f64;
        (self.times.ticks_of(s) as f64 - calls * self.pair_ticks / 2.0).max(0.0)
    }

    /// Share of search time in `s` (0..1).
    pub fn share(&self, s: Section) -> f64 {
        self.ticks_of(s) / self.search_ticks()
    }

    /// Share of search time outside every section: the search's own bookkeeping.
    pub fn rest_share(&self) -> f64 {
        let units: f64 = Section::ALL.iter().map(|&s| self.ticks_of(s)).sum();
        ((self.search_ticks() - units) / self.search_ticks()).max(0.0)
    }

    /// Nanoseconds per call of `s` in software (0 when never called).
    pub fn ns_per_call(&self, s: Section) -> f64 {
        match self.times.calls_of(s) {
            0 => 0.0,
            n => self.ticks_of(s) * self.ns_per_tick / n as f64,
        }
    }

    /// The profiled run's extra wall time over the plain run's, as a fraction.
    pub fn wall_overhead(&self) -> f64 {
        self.profiled_ns as f64 / self.plain_ns.max(1) as f64 - 1.0
    }

    /// The calibrated probe cost as a fraction of the profiled run's ticks.
    pub fn probe_overhead(&self) -> f64 {
        self.times.pairs() as f64 * self.pair_ticks / self.total_ticks.max(1) as f64
    }

    /// Search nodes per second of the plain run.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 * 1e9 / self.plain_ns.max(1) as f64
    }
}

/// Why a profile could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfileError {
    /// No position to search.
    NoPositions,
    /// The limits are neither a depth nor a node count.
    NotDeterministic,
    /// The profiled run searched other nodes than the plain one: the probes changed the
    /// search, and the profile would describe another search.
    NodesDiffer {
        /// Nodes of the plain run.
        plain: u64,
        /// Nodes of the profiled run.
        profiled: u64,
    },
}

impl std::fmt::Display for ProfileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProfileError::NoPositions => f.write_str("no position to profile"),
            ProfileError::NotDeterministic => {
                f.write_str("a profile needs a depth or a node limit (a deterministic search)")
            }
            ProfileError::NodesDiffer { plain, profiled } => write!(
                f,
                "the profiled search visited {profiled} nodes, the plain one {plain}: the \
                 probes changed the search"
            ),
        }
    }
}

impl std::error::Error for ProfileError {}

/// Searches every position of `spec` on `pool` and returns (nodes, wall ns, time-stamp ticks),
/// both clocks read around the same searches.
fn run_all(pool: &ThreadPool, spec: &ProfileSpec) -> (u64, u64, u64) {
    let listener: Listener = Arc::new(|_: &Board, _: Event| {});
    let mut nodes = 0;
    // As `estuary bench`: one fresh pool and table for the whole run.
    pool.clear();
    let (t0, tick0) = (Instant::now(), ticks());
    for start in &spec.positions {
        pool.search_sync(job(*start, spec.limits.clone(), &listener, pool.tt()));
        nodes += pool.last_nodes();
    }
    let tick_count = ticks().wrapping_sub(tick0);
    (nodes, t0.elapsed().as_nanos() as u64, tick_count)
}

/// The plain run: the engine's own pool, as `estuary bench` runs it.
fn plain_run(spec: &ProfileSpec) -> (u64, u64) {
    let pool = ThreadPool::new(1, spec.hash_mb, SoftwareDevice::default);
    pool.set_network(spec.net.clone());
    let (nodes, ns, _) = run_all(&pool, spec);
    (nodes, ns)
}

/// The profiled run with the evaluators `evaluators` builds (all timed by `probe`).
fn profiled_run<E, G>(spec: &ProfileSpec, probe: &Profiler, evaluators: G) -> (u64, u64, u64)
where
    E: Evaluator + 'static,
    G: Fn() -> E + Send + Sync + 'static,
{
    let p = probe.clone();
    let pool = ThreadPool::with_probe(
        1,
        spec.hash_mb,
        move || ProfiledDevice::new(SoftwareDevice::default(), p.clone()),
        evaluators,
        probe.clone(),
    );
    pool.set_network(spec.net.clone());
    probe.reset();
    run_all(&pool, spec)
}

/// The profiled run with a network evaluator built by `make` (its output and updates timed),
/// plus the hand-crafted terms when the net is hybrid.
fn net_run<N, F>(spec: &ProfileSpec, probe: &Profiler, hybrid: bool, make: F) -> (u64, u64, u64)
where
    N: Evaluator + 'static,
    F: Fn() -> N + Send + Sync + 'static,
{
    let p = probe.clone();
    if hybrid {
        profiled_run(spec, probe, move || HybridEval {
            net: ProfiledEval::new(make(), p.clone(), Section::EvalOutput, true),
            terms: ProfiledEval::new(
                HandCraftedEval::default(),
                p.clone(),
                Section::EvalTerms,
                false,
            ),
        })
    } else {
        profiled_run(spec, probe, move || {
            ProfiledEval::new(make(), p.clone(), Section::EvalOutput, true)
        })
    }
}

/// Profiles the searches of `spec`. `progress` hears of each run as it starts.
pub fn profile(
    spec: &ProfileSpec,
    mut progress: impl FnMut(&str),
) -> Result<Profile, ProfileError> {
    if spec.positions.is_empty() {
        return Err(ProfileError::NoPositions);
    }
    if spec.limits.depth.is_none() && spec.limits.nodes.is_none() {
        return Err(ProfileError::NotDeterministic);
    }
    progress("calibrating the probe");
    let pair_ticks = probe_pair_ticks();
    progress("plain run");
    let (plain_nodes, plain_a) = plain_run(spec);
    progress("profiled run");
    let probe = Profiler::new();
    let (nodes, profiled_ns, total_ticks, evaluator) = match &spec.net {
        None => {
            let p = probe.clone();
            let (n, ns, t) = profiled_run(spec, &probe, move || {
                ProfiledEval::new(
                    HandCraftedEval::default(),
                    p.clone(),
                    Section::EvalTerms,
                    false,
                )
            });
            (n, ns, t, "hand-crafted")
        }
        Some(Net::Nnue(net)) => {
            let (hybrid, net) = (net.is_hybrid(), net.clone());
            let (n, ns, t) = net_run(spec, &probe, hybrid, move || NnueEval::new(net.clone()));
            (n, ns, t, if hybrid { "hybrid" } else { "nnue" })
        }
        Some(Net::Chip(net)) => {
            let (hybrid, net) = (net.hybrid, net.clone());
            let (n, ns, t) = net_run(spec, &probe, hybrid, move || ChipEval::new(net.clone()));
            (n, ns, t, if hybrid { "chip hybrid" } else { "chip" })
        }
    };
    if nodes != plain_nodes {
        return Err(ProfileError::NodesDiffer {
            plain: plain_nodes,
            profiled: nodes,
        });
    }
    progress("plain run again");
    let (_, plain_b) = plain_run(spec);
    Ok(Profile {
        nodes,
        plain_ns: plain_a.min(plain_b),
        profiled_ns,
        total_ticks,
        times: probe.times(),
        pair_ticks,
        ns_per_tick: profiled_ns as f64 / total_ticks.max(1) as f64,
        evaluator,
    })
}

/// Device clocks and bus words per kind of call of the move generator `factory` builds,
/// measured over the searches of `spec` (for Amdahl's law: the co-simulated Verilog's figures).
pub fn device_costs<D, F>(spec: &ProfileSpec, factory: F) -> Arc<CallCosts>
where
    D: MoveGenDevice + 'static,
    F: Fn() -> D + Send + Sync + 'static,
{
    let costs = Arc::new(CallCosts::default());
    let c = costs.clone();
    let pool = ThreadPool::new(1, spec.hash_mb, move || {
        CostMeter::new(factory(), c.clone())
    });
    pool.set_network(spec.net.clone());
    run_all(&pool, spec);
    costs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(net: Option<Net>) -> ProfileSpec {
        ProfileSpec {
            positions: crate::bench::POSITIONS[..3]
                .iter()
                .map(|f| Board::from_fen(f).expect("bench FEN"))
                .collect(),
            limits: Limits::depth(6),
            hash_mb: 4,
            net,
        }
    }

    #[test]
    fn a_profile_searches_the_plain_runs_nodes_and_accounts_for_all_time() {
        for net in [None, Some(Net::Nnue(eval::nnue::Network::embedded()))] {
            let hce = net.is_none();
            let p = profile(&spec(net), |_| {}).expect("a deterministic profile");
            assert!(p.nodes > 1000);
            // The profiler charges exclusive time (an enclosing section pauses while another
            // runs inside it), so the sections' raw ticks (the timer's own cost included) are
            // disjoint stretches of the run and add up to at most its ticks: exact, on a
            // loaded machine too. Time charged twice, to a section and to the one around it,
            // breaks it (evaluation is about 45% of the run).
            let raw: u64 = Section::ALL.iter().map(|&s| p.times.ticks_of(s)).sum();
            assert!(
                raw <= p.total_ticks,
                "sections {raw} ticks of {}",
                p.total_ticks
            );
            // Every section is entered; its time, less the timer's calibrated overhead, may
            // come to nothing for a cheap section on a loaded machine, but not for all four.
            let sections = [
                Section::MoveGen,
                Section::MakeUnmake,
                Section::Tt,
                Section::Ordering,
            ];
            for s in sections {
                assert!(p.times.calls_of(s) > 0, "{s:?} never timed");
                assert!(p.share(s) >= 0.0, "{s:?} a negative share");
            }
            assert!(sections.iter().map(|&s| p.share(s)).sum::<f64>() > 0.0);
            assert!(p.share(Section::EvalTerms) > 0.0);
            assert_eq!(hce, p.times.calls_of(Section::EvalUpdate) == 0);
            assert_eq!(hce, p.times.calls_of(Section::EvalOutput) == 0);
        }
    }

    #[test]
    fn a_profile_needs_a_deterministic_search() {
        let mut s = spec(None);
        s.limits = Limits::default();
        assert_eq!(
            profile(&s, |_| {}).unwrap_err(),
            ProfileError::NotDeterministic
        );
        s.positions.clear();
        assert_eq!(profile(&s, |_| {}).unwrap_err(), ProfileError::NoPositions);
    }
}
