//! Amdahl's law with measured numbers: the whole search's speedup when one unit's work moves
//! into hardware that takes a known number of clocks (and bus words) per call.
//!
//! The software side comes from a profile (how much of the search's time the unit takes and
//! how many calls it serves); the hardware side from the co-simulation (clocks and words per
//! call) and the routed Fmax. A unit's calls then cost `clocks / Fmax + words * bus` each, the
//! rest of the search stays as it is: `speedup = T / (T - t_unit + calls * t_hw)`. A unit with
//! no hardware yet has only the bound of an infinitely fast one, `1 / (1 - share)`.

/// One kind of call a unit serves: how many the search made, what they cost in software, and
/// what one costs in hardware.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CallLoad {
    /// Calls made by the profiled search.
    pub calls: u64,
    /// Software time they took in all, ns.
    pub software_ns: f64,
    /// Device clocks per call.
    pub clocks_per_call: f64,
    /// 32-bit bus words per call (both directions).
    pub words_per_call: f64,
}

/// What moving one unit into hardware would give.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Projection {
    /// The unit's share of the search's time in software (0..1).
    pub share: f64,
    /// The unit's own speedup on chip (software time / hardware time), no bus.
    pub unit_speedup: f64,
    /// The unit's own speedup with the bus cost.
    pub unit_speedup_bus: f64,
    /// The whole search's speedup, the unit on chip beside the search (no bus).
    pub whole: f64,
    /// The whole search's speedup with every word crossing the bus.
    pub whole_bus: f64,
    /// The bound for an infinitely fast unit: `1 / (1 - share)`.
    pub limit: f64,
}

/// The bound Amdahl's law puts on any speedup of a unit taking `share` of the time.
pub fn limit(share: f64) -> f64 {
    if share >= 1.0 {
        f64::INFINITY
    } else {
        1.0 / (1.0 - share)
    }
}

/// Projects moving the calls in `loads` (one unit's) into hardware clocked at `fmax_mhz`, with
/// `bus_ns_per_word` for every word that crosses the bus; `total_ns` is the whole search's
/// software time.
pub fn project(
    total_ns: f64,
    loads: &[CallLoad],
    fmax_mhz: f64,
    bus_ns_per_word: f64,
) -> Projection {
    let software: f64 = loads.iter().map(|l| l.software_ns).sum();
    let clock_ns = 1e3 / fmax_mhz;
    let on_chip: f64 = loads
        .iter()
        .map(|l| l.calls as f64 * l.clocks_per_call * clock_ns)
        .sum();
    let bus: f64 = loads
        .iter()
        .map(|l| l.calls as f64 * l.words_per_call * bus_ns_per_word)
        .sum();
    let share = software / total_ns;
    let whole = |hw: f64| total_ns / (total_ns - software + hw);
    Projection {
        share,
        unit_speedup: software / on_chip.max(f64::MIN_POSITIVE),
        unit_speedup_bus: software / (on_chip + bus).max(f64::MIN_POSITIVE),
        whole: whole(on_chip),
        whole_bus: whole(on_chip + bus),
        limit: limit(share),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_reviews_split_gives_amdahls_textbook_numbers() {
        // A unit taking 55% of 100 ms made 10x faster: 1 / (0.45 + 0.055) = 1.98.
        let load = CallLoad {
            calls: 1_000_000,
            software_ns: 55e6,
            clocks_per_call: 5.5, // 5.5 ns at 1 GHz: a tenth of the 55 ns per call
            words_per_call: 0.0,
        };
        let p = project(100e6, &[load], 1000.0, 50.0);
        assert!((p.share - 0.55).abs() < 1e-12);
        assert!((p.unit_speedup - 10.0).abs() < 1e-9);
        assert!((p.whole - 1.0 / (0.45 + 0.055)).abs() < 1e-9);
        assert_eq!(p.whole, p.whole_bus);
        assert!((p.limit - 1.0 / 0.45).abs() < 1e-12);
        // Two words a call at 50 ns: 105.5 ns a call, slower than software; the search loses.
        let load = CallLoad {
            words_per_call: 2.0,
            ..load
        };
        let p = project(100e6, &[load], 1000.0, 50.0);
        assert!(p.unit_speedup_bus < 1.0 && p.whole_bus < 1.0);
        assert!((p.whole_bus - 100e6 / (45e6 + 105.5e6)).abs() < 1e-9);
    }

    #[test]
    fn several_kinds_of_call_add_up() {
        let a = CallLoad {
            calls: 10,
            software_ns: 1000.0,
            clocks_per_call: 10.0,
            words_per_call: 1.0,
        };
        let b = CallLoad {
            calls: 30,
            software_ns: 3000.0,
            clocks_per_call: 2.0,
            words_per_call: 0.0,
        };
        // At 100 MHz: 10 * 100 ns + 30 * 20 ns = 1600 ns on chip for 4000 ns of software.
        let p = project(10_000.0, &[a, b], 100.0, 0.0);
        assert!((p.unit_speedup - 2.5).abs() < 1e-12);
        assert!((p.whole - 10_000.0 / 7_600.0).abs() < 1e-12);
    }
}
