//! Chess rules for Estuary.
