//! Writes the hand-set starting weights as `weights.rs` source to stdout.
fn main() {
    let w = eval::params::start_weights();
    print!(
        "{}",
        eval::params::weights_source(
            &w,
            "Hand-set starting values (params::start_weights), not yet tuned."
        )
    );
}
