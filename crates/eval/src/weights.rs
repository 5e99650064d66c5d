//! Evaluation weights (middlegame, endgame) in the layout of `params.rs`.
//! Hand-set starting values (params::start_weights), not yet tuned.

use crate::params::{NUM_PARAMS, S};

/// The weights the engine plays with.
#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_PARAMS] = [
    S(90, 110), // material pawn
    S(320, 300), // material knight
    S(330, 320), // material bishop
    S(470, 540), // material rook
    S(950, 1000), // material queen
    S(0, 0), // material king
    S(0, 0), // psqt pawn a1
    S(0, 0), // psqt pawn b1
    S(0, 0), // psqt pawn c1
    S(0, 0), // psqt pawn d1
    S(0, 0), // psqt pawn e1
    S(0, 0), // psqt pawn f1
    S(0, 0), // psqt pawn g1
    S(0, 0), // psqt pawn h1
    S(0, 0), // psqt pawn a2
    S(0, 0), // psqt pawn b2
    S(0, 0), // psqt pawn c2
    S(0, 0), // psqt pawn d2
    S(0, 0), // psqt pawn e2
    S(0, 0), // psqt pawn f2
    S(0, 0), // psqt pawn g2
    S(0, 0), // psqt pawn h2
    S(5, 10), // psqt pawn a3
    S(5, 10), // psqt pawn b3
    S(5, 10), // psqt pawn c3
    S(15, 10), // psqt pawn d3
    S(15, 10), // psqt pawn e3
    S(5, 10), // psqt pawn f3
    S(5, 10), // psqt pawn g3
    S(5, 10), // psqt pawn h3
    S(10, 20), // psqt pawn a4
    S(10, 20), // psqt pawn b4
    S(10, 20), // psqt pawn c4
    S(20, 20), // psqt pawn d4
    S(20, 20), // psqt pawn e4
    S(10, 20), // psqt pawn f4
    S(10, 20), // psqt pawn g4
    S(10, 20), // psqt pawn h4
    S(15, 30), // psqt pawn a5
    S(15, 30), // psqt pawn b5
    S(15, 30), // psqt pawn c5
    S(25, 30), // psqt pawn d5
    S(25, 30), // psqt pawn e5
    S(15, 30), // psqt pawn f5
    S(15, 30), // psqt pawn g5
    S(15, 30), // psqt pawn h5
    S(20, 40), // psqt pawn a6
    S(20, 40), // psqt pawn b6
    S(20, 40), // psqt pawn c6
    S(20, 40), // psqt pawn d6
    S(20, 40), // psqt pawn e6
    S(20, 40), // psqt pawn f6
    S(20, 40), // psqt pawn g6
    S(20, 40), // psqt pawn h6
    S(25, 50), // psqt pawn a7
    S(25, 50), // psqt pawn b7
    S(25, 50), // psqt pawn c7
    S(25, 50), // psqt pawn d7
    S(25, 50), // psqt pawn e7
    S(25, 50), // psqt pawn f7
    S(25, 50), // psqt pawn g7
    S(25, 50), // psqt pawn h7
    S(0, 0), // psqt pawn a8
    S(0, 0), // psqt pawn b8
    S(0, 0), // psqt pawn c8
    S(0, 0), // psqt pawn d8
    S(0, 0), // psqt pawn e8
    S(0, 0), // psqt pawn f8
    S(0, 0), // psqt pawn g8
    S(0, 0), // psqt pawn h8
    S(-36, -27), // psqt knight a1
    S(-28, -21), // psqt knight b1
    S(-20, -15), // psqt knight c1
    S(-12, -9), // psqt knight d1
    S(-12, -9), // psqt knight e1
    S(-20, -15), // psqt knight f1
    S(-28, -21), // psqt knight g1
    S(-36, -27), // psqt knight h1
    S(-28, -21), // psqt knight a2
    S(-20, -15), // psqt knight b2
    S(-12, -9), // psqt knight c2
    S(-4, -3), // psqt knight d2
    S(-4, -3), // psqt knight e2
    S(-12, -9), // psqt knight f2
    S(-20, -15), // psqt knight g2
    S(-28, -21), // psqt knight h2
    S(-20, -15), // psqt knight a3
    S(-12, -9), // psqt knight b3
    S(-4, -3), // psqt knight c3
    S(4, 3), // psqt knight d3
    S(4, 3), // psqt knight e3
    S(-4, -3), // psqt knight f3
    S(-12, -9), // psqt knight g3
    S(-20, -15), // psqt knight h3
    S(-12, -9), // psqt knight a4
    S(-4, -3), // psqt knight b4
    S(4, 3), // psqt knight c4
    S(12, 9), // psqt knight d4
    S(12, 9), // psqt knight e4
    S(4, 3), // psqt knight f4
    S(-4, -3), // psqt knight g4
    S(-12, -9), // psqt knight h4
    S(-12, -9), // psqt knight a5
    S(-4, -3), // psqt knight b5
    S(4, 3), // psqt knight c5
    S(12, 9), // psqt knight d5
    S(12, 9), // psqt knight e5
    S(4, 3), // psqt knight f5
    S(-4, -3), // psqt knight g5
    S(-12, -9), // psqt knight h5
    S(-20, -15), // psqt knight a6
    S(-12, -9), // psqt knight b6
    S(-4, -3), // psqt knight c6
    S(4, 3), // psqt knight d6
    S(4, 3), // psqt knight e6
    S(-4, -3), // psqt knight f6
    S(-12, -9), // psqt knight g6
    S(-20, -15), // psqt knight h6
    S(-28, -21), // psqt knight a7
    S(-20, -15), // psqt knight b7
    S(-12, -9), // psqt knight c7
    S(-4, -3), // psqt knight d7
    S(-4, -3), // psqt knight e7
    S(-12, -9), // psqt knight f7
    S(-20, -15), // psqt knight g7
    S(-28, -21), // psqt knight h7
    S(-36, -27), // psqt knight a8
    S(-28, -21), // psqt knight b8
    S(-20, -15), // psqt knight c8
    S(-12, -9), // psqt knight d8
    S(-12, -9), // psqt knight e8
    S(-20, -15), // psqt knight f8
    S(-28, -21), // psqt knight g8
    S(-36, -27), // psqt knight h8
    S(-18, -18), // psqt bishop a1
    S(-14, -14), // psqt bishop b1
    S(-10, -10), // psqt bishop c1
    S(-6, -6), // psqt bishop d1
    S(-6, -6), // psqt bishop e1
    S(-10, -10), // psqt bishop f1
    S(-14, -14), // psqt bishop g1
    S(-18, -18), // psqt bishop h1
    S(-14, -14), // psqt bishop a2
    S(-10, -10), // psqt bishop b2
    S(-6, -6), // psqt bishop c2
    S(-2, -2), // psqt bishop d2
    S(-2, -2), // psqt bishop e2
    S(-6, -6), // psqt bishop f2
    S(-10, -10), // psqt bishop g2
    S(-14, -14), // psqt bishop h2
    S(-10, -10), // psqt bishop a3
    S(-6, -6), // psqt bishop b3
    S(-2, -2), // psqt bishop c3
    S(2, 2), // psqt bishop d3
    S(2, 2), // psqt bishop e3
    S(-2, -2), // psqt bishop f3
    S(-6, -6), // psqt bishop g3
    S(-10, -10), // psqt bishop h3
    S(-6, -6), // psqt bishop a4
    S(-2, -2), // psqt bishop b4
    S(2, 2), // psqt bishop c4
    S(6, 6), // psqt bishop d4
    S(6, 6), // psqt bishop e4
    S(2, 2), // psqt bishop f4
    S(-2, -2), // psqt bishop g4
    S(-6, -6), // psqt bishop h4
    S(-6, -6), // psqt bishop a5
    S(-2, -2), // psqt bishop b5
    S(2, 2), // psqt bishop c5
    S(6, 6), // psqt bishop d5
    S(6, 6), // psqt bishop e5
    S(2, 2), // psqt bishop f5
    S(-2, -2), // psqt bishop g5
    S(-6, -6), // psqt bishop h5
    S(-10, -10), // psqt bishop a6
    S(-6, -6), // psqt bishop b6
    S(-2, -2), // psqt bishop c6
    S(2, 2), // psqt bishop d6
    S(2, 2), // psqt bishop e6
    S(-2, -2), // psqt bishop f6
    S(-6, -6), // psqt bishop g6
    S(-10, -10), // psqt bishop h6
    S(-14, -14), // psqt bishop a7
    S(-10, -10), // psqt bishop b7
    S(-6, -6), // psqt bishop c7
    S(-2, -2), // psqt bishop d7
    S(-2, -2), // psqt bishop e7
    S(-6, -6), // psqt bishop f7
    S(-10, -10), // psqt bishop g7
    S(-14, -14), // psqt bishop h7
    S(-18, -18), // psqt bishop a8
    S(-14, -14), // psqt bishop b8
    S(-10, -10), // psqt bishop c8
    S(-6, -6), // psqt bishop d8
    S(-6, -6), // psqt bishop e8
    S(-10, -10), // psqt bishop f8
    S(-14, -14), // psqt bishop g8
    S(-18, -18), // psqt bishop h8
    S(0, 0), // psqt rook a1
    S(0, 0), // psqt rook b1
    S(0, 0), // psqt rook c1
    S(5, 0), // psqt rook d1
    S(5, 0), // psqt rook e1
    S(0, 0), // psqt rook f1
    S(0, 0), // psqt rook g1
    S(0, 0), // psqt rook h1
    S(0, 0), // psqt rook a2
    S(0, 0), // psqt rook b2
    S(0, 0), // psqt rook c2
    S(5, 0), // psqt rook d2
    S(5, 0), // psqt rook e2
    S(0, 0), // psqt rook f2
    S(0, 0), // psqt rook g2
    S(0, 0), // psqt rook h2
    S(0, 0), // psqt rook a3
    S(0, 0), // psqt rook b3
    S(0, 0), // psqt rook c3
    S(5, 0), // psqt rook d3
    S(5, 0), // psqt rook e3
    S(0, 0), // psqt rook f3
    S(0, 0), // psqt rook g3
    S(0, 0), // psqt rook h3
    S(0, 0), // psqt rook a4
    S(0, 0), // psqt rook b4
    S(0, 0), // psqt rook c4
    S(5, 0), // psqt rook d4
    S(5, 0), // psqt rook e4
    S(0, 0), // psqt rook f4
    S(0, 0), // psqt rook g4
    S(0, 0), // psqt rook h4
    S(0, 0), // psqt rook a5
    S(0, 0), // psqt rook b5
    S(0, 0), // psqt rook c5
    S(5, 0), // psqt rook d5
    S(5, 0), // psqt rook e5
    S(0, 0), // psqt rook f5
    S(0, 0), // psqt rook g5
    S(0, 0), // psqt rook h5
    S(0, 0), // psqt rook a6
    S(0, 0), // psqt rook b6
    S(0, 0), // psqt rook c6
    S(5, 0), // psqt rook d6
    S(5, 0), // psqt rook e6
    S(0, 0), // psqt rook f6
    S(0, 0), // psqt rook g6
    S(0, 0), // psqt rook h6
    S(10, 0), // psqt rook a7
    S(10, 0), // psqt rook b7
    S(10, 0), // psqt rook c7
    S(15, 0), // psqt rook d7
    S(15, 0), // psqt rook e7
    S(10, 0), // psqt rook f7
    S(10, 0), // psqt rook g7
    S(10, 0), // psqt rook h7
    S(0, 0), // psqt rook a8
    S(0, 0), // psqt rook b8
    S(0, 0), // psqt rook c8
    S(5, 0), // psqt rook d8
    S(5, 0), // psqt rook e8
    S(0, 0), // psqt rook f8
    S(0, 0), // psqt rook g8
    S(0, 0), // psqt rook h8
    S(-14, -18), // psqt queen a1
    S(-12, -14), // psqt queen b1
    S(-10, -10), // psqt queen c1
    S(-8, -6), // psqt queen d1
    S(-8, -6), // psqt queen e1
    S(-10, -10), // psqt queen f1
    S(-12, -14), // psqt queen g1
    S(-14, -18), // psqt queen h1
    S(-12, -14), // psqt queen a2
    S(-10, -10), // psqt queen b2
    S(-8, -6), // psqt queen c2
    S(-6, -2), // psqt queen d2
    S(-6, -2), // psqt queen e2
    S(-8, -6), // psqt queen f2
    S(-10, -10), // psqt queen g2
    S(-12, -14), // psqt queen h2
    S(-10, -10), // psqt queen a3
    S(-8, -6), // psqt queen b3
    S(-6, -2), // psqt queen c3
    S(-4, 2), // psqt queen d3
    S(-4, 2), // psqt queen e3
    S(-6, -2), // psqt queen f3
    S(-8, -6), // psqt queen g3
    S(-10, -10), // psqt queen h3
    S(-8, -6), // psqt queen a4
    S(-6, -2), // psqt queen b4
    S(-4, 2), // psqt queen c4
    S(-2, 6), // psqt queen d4
    S(-2, 6), // psqt queen e4
    S(-4, 2), // psqt queen f4
    S(-6, -2), // psqt queen g4
    S(-8, -6), // psqt queen h4
    S(-8, -6), // psqt queen a5
    S(-6, -2), // psqt queen b5
    S(-4, 2), // psqt queen c5
    S(-2, 6), // psqt queen d5
    S(-2, 6), // psqt queen e5
    S(-4, 2), // psqt queen f5
    S(-6, -2), // psqt queen g5
    S(-8, -6), // psqt queen h5
    S(-10, -10), // psqt queen a6
    S(-8, -6), // psqt queen b6
    S(-6, -2), // psqt queen c6
    S(-4, 2), // psqt queen d6
    S(-4, 2), // psqt queen e6
    S(-6, -2), // psqt queen f6
    S(-8, -6), // psqt queen g6
    S(-10, -10), // psqt queen h6
    S(-12, -14), // psqt queen a7
    S(-10, -10), // psqt queen b7
    S(-8, -6), // psqt queen c7
    S(-6, -2), // psqt queen d7
    S(-6, -2), // psqt queen e7
    S(-8, -6), // psqt queen f7
    S(-10, -10), // psqt queen g7
    S(-12, -14), // psqt queen h7
    S(-14, -18), // psqt queen a8
    S(-12, -14), // psqt queen b8
    S(-10, -10), // psqt queen c8
    S(-8, -6), // psqt queen d8
    S(-8, -6), // psqt queen e8
    S(-10, -10), // psqt queen f8
    S(-12, -14), // psqt queen g8
    S(-14, -18), // psqt queen h8
    S(10, -40), // psqt king a1
    S(20, -30), // psqt king b1
    S(10, -20), // psqt king c1
    S(0, -10), // psqt king d1
    S(0, -10), // psqt king e1
    S(0, -20), // psqt king f1
    S(20, -30), // psqt king g1
    S(10, -40), // psqt king h1
    S(-20, -30), // psqt king a2
    S(-20, -20), // psqt king b2
    S(-20, -10), // psqt king c2
    S(-20, 0), // psqt king d2
    S(-20, 0), // psqt king e2
    S(-20, -10), // psqt king f2
    S(-20, -20), // psqt king g2
    S(-20, -30), // psqt king h2
    S(-40, -20), // psqt king a3
    S(-40, -10), // psqt king b3
    S(-40, 0), // psqt king c3
    S(-40, 10), // psqt king d3
    S(-40, 10), // psqt king e3
    S(-40, 0), // psqt king f3
    S(-40, -10), // psqt king g3
    S(-40, -20), // psqt king h3
    S(-60, -10), // psqt king a4
    S(-60, 0), // psqt king b4
    S(-60, 10), // psqt king c4
    S(-60, 20), // psqt king d4
    S(-60, 20), // psqt king e4
    S(-60, 10), // psqt king f4
    S(-60, 0), // psqt king g4
    S(-60, -10), // psqt king h4
    S(-80, -10), // psqt king a5
    S(-80, 0), // psqt king b5
    S(-80, 10), // psqt king c5
    S(-80, 20), // psqt king d5
    S(-80, 20), // psqt king e5
    S(-80, 10), // psqt king f5
    S(-80, 0), // psqt king g5
    S(-80, -10), // psqt king h5
    S(-100, -20), // psqt king a6
    S(-100, -10), // psqt king b6
    S(-100, 0), // psqt king c6
    S(-100, 10), // psqt king d6
    S(-100, 10), // psqt king e6
    S(-100, 0), // psqt king f6
    S(-100, -10), // psqt king g6
    S(-100, -20), // psqt king h6
    S(-120, -30), // psqt king a7
    S(-120, -20), // psqt king b7
    S(-120, -10), // psqt king c7
    S(-120, 0), // psqt king d7
    S(-120, 0), // psqt king e7
    S(-120, -10), // psqt king f7
    S(-120, -20), // psqt king g7
    S(-120, -30), // psqt king h7
    S(-140, -40), // psqt king a8
    S(-140, -30), // psqt king b8
    S(-140, -20), // psqt king c8
    S(-140, -10), // psqt king d8
    S(-140, -10), // psqt king e8
    S(-140, -20), // psqt king f8
    S(-140, -30), // psqt king g8
    S(-140, -40), // psqt king h8
    S(-16, -16), // mobility knight 0
    S(-12, -12), // mobility knight 1
    S(-8, -8), // mobility knight 2
    S(-4, -4), // mobility knight 3
    S(0, 0), // mobility knight 4
    S(4, 4), // mobility knight 5
    S(8, 8), // mobility knight 6
    S(12, 12), // mobility knight 7
    S(16, 16), // mobility knight 8
    S(-24, -30), // mobility bishop 0
    S(-20, -25), // mobility bishop 1
    S(-16, -20), // mobility bishop 2
    S(-12, -15), // mobility bishop 3
    S(-8, -10), // mobility bishop 4
    S(-4, -5), // mobility bishop 5
    S(0, 0), // mobility bishop 6
    S(4, 5), // mobility bishop 7
    S(8, 10), // mobility bishop 8
    S(12, 15), // mobility bishop 9
    S(16, 20), // mobility bishop 10
    S(20, 25), // mobility bishop 11
    S(24, 30), // mobility bishop 12
    S(28, 35), // mobility bishop 13
    S(-14, -28), // mobility rook 0
    S(-12, -24), // mobility rook 1
    S(-10, -20), // mobility rook 2
    S(-8, -16), // mobility rook 3
    S(-6, -12), // mobility rook 4
    S(-4, -8), // mobility rook 5
    S(-2, -4), // mobility rook 6
    S(0, 0), // mobility rook 7
    S(2, 4), // mobility rook 8
    S(4, 8), // mobility rook 9
    S(6, 12), // mobility rook 10
    S(8, 16), // mobility rook 11
    S(10, 20), // mobility rook 12
    S(12, 24), // mobility rook 13
    S(14, 28), // mobility rook 14
    S(-13, -26), // mobility queen 0
    S(-12, -24), // mobility queen 1
    S(-11, -22), // mobility queen 2
    S(-10, -20), // mobility queen 3
    S(-9, -18), // mobility queen 4
    S(-8, -16), // mobility queen 5
    S(-7, -14), // mobility queen 6
    S(-6, -12), // mobility queen 7
    S(-5, -10), // mobility queen 8
    S(-4, -8), // mobility queen 9
    S(-3, -6), // mobility queen 10
    S(-2, -4), // mobility queen 11
    S(-1, -2), // mobility queen 12
    S(0, 0), // mobility queen 13
    S(1, 2), // mobility queen 14
    S(2, 4), // mobility queen 15
    S(3, 6), // mobility queen 16
    S(4, 8), // mobility queen 17
    S(5, 10), // mobility queen 18
    S(6, 12), // mobility queen 19
    S(7, 14), // mobility queen 20
    S(8, 16), // mobility queen 21
    S(9, 18), // mobility queen 22
    S(10, 20), // mobility queen 23
    S(11, 22), // mobility queen 24
    S(12, 24), // mobility queen 25
    S(13, 26), // mobility queen 26
    S(14, 28), // mobility queen 27
    S(0, 0), // passed rank 1
    S(5, 10), // passed rank 2
    S(10, 20), // passed rank 3
    S(20, 40), // passed rank 4
    S(35, 70), // passed rank 5
    S(60, 110), // passed rank 6
    S(100, 160), // passed rank 7
    S(0, 0), // passed rank 8
    S(0, 0), // connected rank 1
    S(3, 3), // connected rank 2
    S(6, 6), // connected rank 3
    S(9, 9), // connected rank 4
    S(12, 12), // connected rank 5
    S(15, 15), // connected rank 6
    S(18, 18), // connected rank 7
    S(21, 21), // connected rank 8
    S(-10, -20), // doubled
    S(-10, -10), // isolated
    S(-8, -6), // backward
    S(15, 0), // shield edge 0 bucket 0
    S(8, 0), // shield edge 0 bucket 1
    S(0, 0), // shield edge 0 bucket 2
    S(-15, 0), // shield edge 0 bucket 3
    S(15, 0), // shield edge 1 bucket 0
    S(8, 0), // shield edge 1 bucket 1
    S(0, 0), // shield edge 1 bucket 2
    S(-15, 0), // shield edge 1 bucket 3
    S(15, 0), // shield edge 2 bucket 0
    S(8, 0), // shield edge 2 bucket 1
    S(0, 0), // shield edge 2 bucket 2
    S(-15, 0), // shield edge 2 bucket 3
    S(15, 0), // shield edge 3 bucket 0
    S(8, 0), // shield edge 3 bucket 1
    S(0, 0), // shield edge 3 bucket 2
    S(-15, 0), // shield edge 3 bucket 3
    S(0, 0), // storm edge 0 bucket 0
    S(-15, 0), // storm edge 0 bucket 1
    S(-8, 0), // storm edge 0 bucket 2
    S(0, 0), // storm edge 0 bucket 3
    S(0, 0), // storm edge 1 bucket 0
    S(-15, 0), // storm edge 1 bucket 1
    S(-8, 0), // storm edge 1 bucket 2
    S(0, 0), // storm edge 1 bucket 3
    S(0, 0), // storm edge 2 bucket 0
    S(-15, 0), // storm edge 2 bucket 1
    S(-8, 0), // storm edge 2 bucket 2
    S(0, 0), // storm edge 2 bucket 3
    S(0, 0), // storm edge 3 bucket 0
    S(-15, 0), // storm edge 3 bucket 1
    S(-8, 0), // storm edge 3 bucket 2
    S(0, 0), // storm edge 3 bucket 3
    S(6, 0), // king attack knight
    S(6, 0), // king attack bishop
    S(8, 0), // king attack rook
    S(12, 0), // king attack queen
    S(30, 50), // bishop pair
    S(25, 10), // rook open file
    S(12, 8), // rook semi-open file
    S(15, 25), // rook seventh
    S(15, 5), // tempo
];
