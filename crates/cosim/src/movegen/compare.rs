//! Hardware in the loop: the engine's searches with the co-simulated generator behind the
//! device interface, next to the same searches on the software generator. The device hands
//! out its moves in the model's order, so both must visit the same nodes (and every node the
//! search visits is a co-simulation check).

use super::RtlDevice;
use crate::RtlError;
use chess::Board;
use device::{DeviceStats, Meter, Metered, SoftwareDevice};
use search::bench::depth_job;
use search::{Event, Listener, ThreadPool};
use std::sync::Arc;

/// Node counts of the same searches on the software generator and on the RTL, and the RTL
/// device's traffic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchComparison {
    /// Nodes of each position's search on the software generator.
    pub software: Vec<u64>,
    /// Nodes of each position's search on the RTL device.
    pub rtl: Vec<u64>,
    /// The RTL device's counters over all the searches (its load at start-up included).
    pub stats: DeviceStats,
}

impl SearchComparison {
    /// Nodes of all the software searches.
    pub fn software_nodes(&self) -> u64 {
        self.software.iter().sum()
    }

    /// Nodes of all the RTL searches.
    pub fn rtl_nodes(&self) -> u64 {
        self.rtl.iter().sum()
    }

    /// True when every search visited as many nodes on the RTL as on software.
    pub fn equal(&self) -> bool {
        self.software == self.rtl
    }
}

/// Searches each of `positions` to `depth` with one thread and a `hash_mb` table, on the
/// software generator and then on the RTL device (each table cleared before every search);
/// calls `progress` after each position with the counts so far.
pub fn compare_searches(
    positions: &[Board],
    depth: i32,
    hash_mb: usize,
    mut progress: impl FnMut(&SearchComparison),
) -> Result<SearchComparison, RtlError> {
    if !crate::available() {
        return Err(RtlError::NotBuilt);
    }
    let meter = Meter::new();
    let rtl_meter = meter.clone();
    let rtl_pool = ThreadPool::new(1, hash_mb, move || {
        // Only NotBuilt fails here, and available() was checked above.
        let dev = RtlDevice::new(&Board::startpos()).expect("verilated model present");
        Metered::new(dev, rtl_meter.clone())
    });
    let sw_pool = ThreadPool::new(1, hash_mb, SoftwareDevice::default);
    let listener: Listener = Arc::new(|_: &Board, _: Event| {});
    let mut c = SearchComparison::default();
    for &start in positions {
        for (pool, nodes) in [(&sw_pool, &mut c.software), (&rtl_pool, &mut c.rtl)] {
            pool.clear();
            pool.search_sync(depth_job(start, depth, &listener, pool.tt()));
            nodes.push(pool.last_nodes());
        }
        c.stats = meter.stats();
        progress(&c);
    }
    Ok(c)
}
