//! Evaluation weights (middlegame, endgame) in the layout of `params.rs`.
//! Texel-tuned by `estuary texel tune` on 223862 positions from the engine's own games
//! (K = 1.074, 800 epochs of Adam, L2 5e-9 toward the hand-set start values):
//! mean squared error 0.098939 -> 0.089955. The threat terms (last four) are hand-set,
//! added after that tuning run.

use crate::params::{NUM_PARAMS, S};

/// The weights the engine plays with.
#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_PARAMS] = [
    S(62, 95), // material pawn
    S(338, 342), // material knight
    S(332, 386), // material bishop
    S(442, 577), // material rook
    S(981, 1077), // material queen
    S(0, 0), // material king
    S(0, 0), // psqt pawn a1
    S(0, 0), // psqt pawn b1
    S(0, 0), // psqt pawn c1
    S(0, 0), // psqt pawn d1
    S(0, 0), // psqt pawn e1
    S(0, 0), // psqt pawn f1
    S(0, 0), // psqt pawn g1
    S(0, 0), // psqt pawn h1
    S(-22, 8), // psqt pawn a2
    S(-7, 29), // psqt pawn b2
    S(-14, 51), // psqt pawn c2
    S(-33, 43), // psqt pawn d2
    S(-17, 5), // psqt pawn e2
    S(22, 19), // psqt pawn f2
    S(11, 38), // psqt pawn g2
    S(42, 28), // psqt pawn h2
    S(-13, 22), // psqt pawn a3
    S(-4, 2), // psqt pawn b3
    S(4, -2), // psqt pawn c3
    S(-6, 16), // psqt pawn d3
    S(9, 15), // psqt pawn e3
    S(18, 20), // psqt pawn f3
    S(33, 31), // psqt pawn g3
    S(36, 17), // psqt pawn h3
    S(-37, -8), // psqt pawn a4
    S(7, 24), // psqt pawn b4
    S(3, -18), // psqt pawn c4
    S(11, 20), // psqt pawn d4
    S(25, 20), // psqt pawn e4
    S(-1, 10), // psqt pawn f4
    S(7, 13), // psqt pawn g4
    S(10, 29), // psqt pawn h4
    S(-4, 31), // psqt pawn a5
    S(38, 5), // psqt pawn b5
    S(25, -20), // psqt pawn c5
    S(7, 3), // psqt pawn d5
    S(34, 39), // psqt pawn e5
    S(6, 7), // psqt pawn f5
    S(30, 5), // psqt pawn g5
    S(46, 9), // psqt pawn h5
    S(57, 17), // psqt pawn a6
    S(-9, 80), // psqt pawn b6
    S(-20, 45), // psqt pawn c6
    S(39, 15), // psqt pawn d6
    S(20, 31), // psqt pawn e6
    S(-4, 7), // psqt pawn f6
    S(7, 65), // psqt pawn g6
    S(13, 52), // psqt pawn h6
    S(77, 27), // psqt pawn a7
    S(55, 100), // psqt pawn b7
    S(-19, 37), // psqt pawn c7
    S(4, 28), // psqt pawn d7
    S(32, 49), // psqt pawn e7
    S(13, 41), // psqt pawn f7
    S(54, 65), // psqt pawn g7
    S(45, 15), // psqt pawn h7
    S(0, 0), // psqt pawn a8
    S(0, 0), // psqt pawn b8
    S(0, 0), // psqt pawn c8
    S(0, 0), // psqt pawn d8
    S(0, 0), // psqt pawn e8
    S(0, 0), // psqt pawn f8
    S(0, 0), // psqt pawn g8
    S(0, 0), // psqt pawn h8
    S(-25, -37), // psqt knight a1
    S(-15, -51), // psqt knight b1
    S(-74, -33), // psqt knight c1
    S(-35, -10), // psqt knight d1
    S(-1, 7), // psqt knight e1
    S(-41, 1), // psqt knight f1
    S(-22, -16), // psqt knight g1
    S(-32, -48), // psqt knight h1
    S(-29, -30), // psqt knight a2
    S(17, -4), // psqt knight b2
    S(-64, 22), // psqt knight c2
    S(-7, -30), // psqt knight d2
    S(-11, 5), // psqt knight e2
    S(39, -8), // psqt knight f2
    S(-30, -29), // psqt knight g2
    S(23, -12), // psqt knight h2
    S(-50, -37), // psqt knight a3
    S(-10, 6), // psqt knight b3
    S(-12, -28), // psqt knight c3
    S(24, -11), // psqt knight d3
    S(-49, 48), // psqt knight e3
    S(5, -21), // psqt knight f3
    S(18, -9), // psqt knight g3
    S(0, 5), // psqt knight h3
    S(19, -8), // psqt knight a4
    S(-49, 14), // psqt knight b4
    S(-38, 24), // psqt knight c4
    S(-9, 57), // psqt knight d4
    S(22, 6), // psqt knight e4
    S(-12, 14), // psqt knight f4
    S(-65, 1), // psqt knight g4
    S(-2, -9), // psqt knight h4
    S(38, -31), // psqt knight a5
    S(1, -35), // psqt knight b5
    S(10, 20), // psqt knight c5
    S(44, -10), // psqt knight d5
    S(41, 38), // psqt knight e5
    S(-5, 32), // psqt knight f5
    S(23, -33), // psqt knight g5
    S(-46, 27), // psqt knight h5
    S(-34, -4), // psqt knight a6
    S(-16, -12), // psqt knight b6
    S(5, 7), // psqt knight c6
    S(30, -4), // psqt knight d6
    S(42, 24), // psqt knight e6
    S(-19, -14), // psqt knight f6
    S(14, 0), // psqt knight g6
    S(-37, -26), // psqt knight h6
    S(-14, -28), // psqt knight a7
    S(-32, -24), // psqt knight b7
    S(1, -23), // psqt knight c7
    S(-20, -21), // psqt knight d7
    S(-20, -11), // psqt knight e7
    S(-12, -1), // psqt knight f7
    S(2, -13), // psqt knight g7
    S(-20, -28), // psqt knight h7
    S(-52, -22), // psqt knight a8
    S(-19, -2), // psqt knight b8
    S(-19, -8), // psqt knight c8
    S(-9, -3), // psqt knight d8
    S(-9, -15), // psqt knight e8
    S(-26, -24), // psqt knight f8
    S(-40, -48), // psqt knight g8
    S(-35, -22), // psqt knight h8
    S(-19, -17), // psqt bishop a1
    S(-50, -22), // psqt bishop b1
    S(-25, -11), // psqt bishop c1
    S(38, 1), // psqt bishop d1
    S(-60, -10), // psqt bishop e1
    S(-27, 10), // psqt bishop f1
    S(9, -18), // psqt bishop g1
    S(-26, -20), // psqt bishop h1
    S(-45, -7), // psqt bishop a2
    S(-38, -23), // psqt bishop b2
    S(-5, 31), // psqt bishop c2
    S(-18, 1), // psqt bishop d2
    S(11, -28), // psqt bishop e2
    S(-39, -17), // psqt bishop f2
    S(20, -13), // psqt bishop g2
    S(46, -16), // psqt bishop h2
    S(-31, 10), // psqt bishop a3
    S(24, 32), // psqt bishop b3
    S(12, -22), // psqt bishop c3
    S(-5, 11), // psqt bishop d3
    S(-18, 28), // psqt bishop e3
    S(15, 5), // psqt bishop f3
    S(-37, 5), // psqt bishop g3
    S(10, 5), // psqt bishop h3
    S(1, -20), // psqt bishop a4
    S(7, -33), // psqt bishop b4
    S(11, 24), // psqt bishop c4
    S(-21, -10), // psqt bishop d4
    S(3, 9), // psqt bishop e4
    S(-9, -10), // psqt bishop f4
    S(-19, -24), // psqt bishop g4
    S(5, -15), // psqt bishop h4
    S(-11, -3), // psqt bishop a5
    S(0, 2), // psqt bishop b5
    S(-1, -2), // psqt bishop c5
    S(21, 12), // psqt bishop d5
    S(16, -9), // psqt bishop e5
    S(-28, -24), // psqt bishop f5
    S(-19, 11), // psqt bishop g5
    S(5, -45), // psqt bishop h5
    S(-24, 9), // psqt bishop a6
    S(19, -6), // psqt bishop b6
    S(25, 8), // psqt bishop c6
    S(6, -7), // psqt bishop d6
    S(25, 12), // psqt bishop e6
    S(20, -28), // psqt bishop f6
    S(27, -6), // psqt bishop g6
    S(27, 10), // psqt bishop h6
    S(-55, -1), // psqt bishop a7
    S(-1, 35), // psqt bishop b7
    S(-5, -1), // psqt bishop c7
    S(19, 10), // psqt bishop d7
    S(-10, -14), // psqt bishop e7
    S(-16, -10), // psqt bishop f7
    S(-19, -36), // psqt bishop g7
    S(-20, -12), // psqt bishop h7
    S(-12, 21), // psqt bishop a8
    S(-7, 3), // psqt bishop b8
    S(-9, -1), // psqt bishop c8
    S(-12, -13), // psqt bishop d8
    S(5, 10), // psqt bishop e8
    S(-20, -41), // psqt bishop f8
    S(-20, -19), // psqt bishop g8
    S(-27, -16), // psqt bishop h8
    S(-32, -1), // psqt rook a1
    S(-3, -19), // psqt rook b1
    S(9, -3), // psqt rook c1
    S(22, -38), // psqt rook d1
    S(67, -60), // psqt rook e1
    S(33, -17), // psqt rook f1
    S(-8, -8), // psqt rook g1
    S(-8, 0), // psqt rook h1
    S(-2, -10), // psqt rook a2
    S(-30, -31), // psqt rook b2
    S(-17, 28), // psqt rook c2
    S(1, 9), // psqt rook d2
    S(9, -30), // psqt rook e2
    S(78, -22), // psqt rook f2
    S(-36, -17), // psqt rook g2
    S(-42, -14), // psqt rook h2
    S(-45, -15), // psqt rook a3
    S(-42, -14), // psqt rook b3
    S(-11, 5), // psqt rook c3
    S(-38, 12), // psqt rook d3
    S(22, -48), // psqt rook e3
    S(7, 15), // psqt rook f3
    S(-2, -33), // psqt rook g3
    S(-25, -9), // psqt rook h3
    S(-12, 22), // psqt rook a4
    S(-46, 12), // psqt rook b4
    S(4, 8), // psqt rook c4
    S(18, 23), // psqt rook d4
    S(2, -21), // psqt rook e4
    S(3, -3), // psqt rook f4
    S(-26, 21), // psqt rook g4
    S(6, 20), // psqt rook h4
    S(-10, 45), // psqt rook a5
    S(51, -5), // psqt rook b5
    S(-4, 28), // psqt rook c5
    S(3, 2), // psqt rook d5
    S(37, -11), // psqt rook e5
    S(-31, 30), // psqt rook f5
    S(-2, 31), // psqt rook g5
    S(-14, 22), // psqt rook h5
    S(-5, 18), // psqt rook a6
    S(-12, 7), // psqt rook b6
    S(29, 38), // psqt rook c6
    S(33, -1), // psqt rook d6
    S(33, 7), // psqt rook e6
    S(35, 12), // psqt rook f6
    S(12, 29), // psqt rook g6
    S(15, 12), // psqt rook h6
    S(-17, 4), // psqt rook a7
    S(13, -11), // psqt rook b7
    S(12, 16), // psqt rook c7
    S(5, -21), // psqt rook d7
    S(28, 14), // psqt rook e7
    S(1, -4), // psqt rook f7
    S(25, 3), // psqt rook g7
    S(-16, 3), // psqt rook h7
    S(16, 4), // psqt rook a8
    S(-3, 1), // psqt rook b8
    S(-11, -12), // psqt rook c8
    S(7, -18), // psqt rook d8
    S(18, 3), // psqt rook e8
    S(17, 25), // psqt rook f8
    S(10, -8), // psqt rook g8
    S(-1, 10), // psqt rook h8
    S(-16, -21), // psqt queen a1
    S(-22, -20), // psqt queen b1
    S(-6, -35), // psqt queen c1
    S(-5, -46), // psqt queen d1
    S(-49, -9), // psqt queen e1
    S(-29, -14), // psqt queen f1
    S(-58, -20), // psqt queen g1
    S(-30, -19), // psqt queen h1
    S(16, 11), // psqt queen a2
    S(1, -37), // psqt queen b2
    S(11, -39), // psqt queen c2
    S(-2, -13), // psqt queen d2
    S(-10, 21), // psqt queen e2
    S(-39, -21), // psqt queen f2
    S(8, 3), // psqt queen g2
    S(-9, -16), // psqt queen h2
    S(-46, -24), // psqt queen a3
    S(0, 2), // psqt queen b3
    S(21, -16), // psqt queen c3
    S(-15, 21), // psqt queen d3
    S(-10, 17), // psqt queen e3
    S(4, 3), // psqt queen f3
    S(-34, -5), // psqt queen g3
    S(-37, 5), // psqt queen h3
    S(-38, 19), // psqt queen a4
    S(-12, -6), // psqt queen b4
    S(20, -21), // psqt queen c4
    S(-3, 22), // psqt queen d4
    S(26, 24), // psqt queen e4
    S(8, 13), // psqt queen f4
    S(-11, -2), // psqt queen g4
    S(-31, 2), // psqt queen h4
    S(-39, -16), // psqt queen a5
    S(-9, 5), // psqt queen b5
    S(24, 15), // psqt queen c5
    S(-9, 16), // psqt queen d5
    S(-2, 19), // psqt queen e5
    S(-21, -3), // psqt queen f5
    S(-8, -8), // psqt queen g5
    S(0, -11), // psqt queen h5
    S(8, -19), // psqt queen a6
    S(36, -3), // psqt queen b6
    S(-16, -11), // psqt queen c6
    S(-12, 10), // psqt queen d6
    S(17, -2), // psqt queen e6
    S(12, 18), // psqt queen f6
    S(48, 16), // psqt queen g6
    S(-24, -21), // psqt queen h6
    S(-20, -9), // psqt queen a7
    S(-62, -28), // psqt queen b7
    S(5, -1), // psqt queen c7
    S(8, 8), // psqt queen d7
    S(18, 20), // psqt queen e7
    S(12, 7), // psqt queen f7
    S(-13, -5), // psqt queen g7
    S(-11, -1), // psqt queen h7
    S(24, -11), // psqt queen a8
    S(2, -18), // psqt queen b8
    S(-14, -10), // psqt queen c8
    S(-1, 3), // psqt queen d8
    S(-4, -6), // psqt queen e8
    S(-17, -11), // psqt queen f8
    S(-28, -22), // psqt queen g8
    S(12, -11), // psqt queen h8
    S(26, -59), // psqt king a1
    S(-3, -32), // psqt king b1
    S(-9, -37), // psqt king c1
    S(-42, 21), // psqt king d1
    S(8, 10), // psqt king e1
    S(-27, -19), // psqt king f1
    S(-11, -8), // psqt king g1
    S(-11, -50), // psqt king h1
    S(-15, -72), // psqt king a2
    S(15, -13), // psqt king b2
    S(-10, -3), // psqt king c2
    S(-29, 6), // psqt king d2
    S(48, -25), // psqt king e2
    S(-29, -6), // psqt king f2
    S(-17, -9), // psqt king g2
    S(4, -24), // psqt king h2
    S(-53, -40), // psqt king a3
    S(-50, -22), // psqt king b3
    S(-47, -6), // psqt king c3
    S(-55, -1), // psqt king d3
    S(-81, -3), // psqt king e3
    S(-36, -11), // psqt king f3
    S(-34, -10), // psqt king g3
    S(-26, 9), // psqt king h3
    S(-63, -17), // psqt king a4
    S(-63, -21), // psqt king b4
    S(-66, -6), // psqt king c4
    S(-51, 3), // psqt king d4
    S(-66, 15), // psqt king e4
    S(-57, -23), // psqt king f4
    S(-72, -9), // psqt king g4
    S(-47, 6), // psqt king h4
    S(-79, -19), // psqt king a5
    S(-73, 25), // psqt king b5
    S(-72, 25), // psqt king c5
    S(-66, 28), // psqt king d5
    S(-67, 31), // psqt king e5
    S(-87, -26), // psqt king f5
    S(-81, 9), // psqt king g5
    S(-86, -24), // psqt king h5
    S(-100, -17), // psqt king a6
    S(-101, -11), // psqt king b6
    S(-95, 35), // psqt king c6
    S(-101, 5), // psqt king d6
    S(-97, 29), // psqt king e6
    S(-104, 14), // psqt king f6
    S(-91, 3), // psqt king g6
    S(-93, -16), // psqt king h6
    S(-119, -28), // psqt king a7
    S(-116, -4), // psqt king b7
    S(-119, -6), // psqt king c7
    S(-120, 3), // psqt king d7
    S(-121, -3), // psqt king e7
    S(-118, -11), // psqt king f7
    S(-119, -25), // psqt king g7
    S(-120, -27), // psqt king h7
    S(-139, -42), // psqt king a8
    S(-137, -20), // psqt king b8
    S(-139, -11), // psqt king c8
    S(-139, -6), // psqt king d8
    S(-140, -25), // psqt king e8
    S(-130, -5), // psqt king f8
    S(-134, -28), // psqt king g8
    S(-140, -40), // psqt king h8
    S(-15, -39), // mobility knight 0
    S(-20, -8), // mobility knight 1
    S(-12, 11), // mobility knight 2
    S(5, 11), // mobility knight 3
    S(4, 22), // mobility knight 4
    S(13, 21), // mobility knight 5
    S(20, 28), // mobility knight 6
    S(19, -5), // mobility knight 7
    S(5, 1), // mobility knight 8
    S(-8, -61), // mobility bishop 0
    S(0, -49), // mobility bishop 1
    S(-12, -17), // mobility bishop 2
    S(-4, -7), // mobility bishop 3
    S(6, 8), // mobility bishop 4
    S(3, 18), // mobility bishop 5
    S(15, 18), // mobility bishop 6
    S(5, 25), // mobility bishop 7
    S(3, 15), // mobility bishop 8
    S(-5, 47), // mobility bishop 9
    S(17, 2), // mobility bishop 10
    S(-14, 51), // mobility bishop 11
    S(23, 20), // mobility bishop 12
    S(1, 31), // mobility bishop 13
    S(-52, -53), // mobility rook 0
    S(-19, -44), // mobility rook 1
    S(-18, -34), // mobility rook 2
    S(-5, -23), // mobility rook 3
    S(-11, 13), // mobility rook 4
    S(-8, 4), // mobility rook 5
    S(-3, 12), // mobility rook 6
    S(2, 7), // mobility rook 7
    S(0, 13), // mobility rook 8
    S(-11, 17), // mobility rook 9
    S(12, 16), // mobility rook 10
    S(25, 23), // mobility rook 11
    S(21, 30), // mobility rook 12
    S(12, 32), // mobility rook 13
    S(27, 25), // mobility rook 14
    S(-34, -32), // mobility queen 0
    S(-26, -37), // mobility queen 1
    S(-19, -38), // mobility queen 2
    S(-18, -50), // mobility queen 3
    S(-18, -42), // mobility queen 4
    S(-8, -29), // mobility queen 5
    S(0, -27), // mobility queen 6
    S(-7, -19), // mobility queen 7
    S(-4, 16), // mobility queen 8
    S(-10, 29), // mobility queen 9
    S(7, 22), // mobility queen 10
    S(-1, 16), // mobility queen 11
    S(4, 11), // mobility queen 12
    S(8, 23), // mobility queen 13
    S(24, 21), // mobility queen 14
    S(-1, 17), // mobility queen 15
    S(4, 8), // mobility queen 16
    S(13, 18), // mobility queen 17
    S(9, 22), // mobility queen 18
    S(19, 19), // mobility queen 19
    S(10, 14), // mobility queen 20
    S(15, 22), // mobility queen 21
    S(14, 15), // mobility queen 22
    S(9, 15), // mobility queen 23
    S(15, 24), // mobility queen 24
    S(12, 17), // mobility queen 25
    S(14, 27), // mobility queen 26
    S(12, 24), // mobility queen 27
    S(0, 0), // passed rank 1
    S(4, 14), // passed rank 2
    S(-4, 39), // passed rank 3
    S(17, 48), // passed rank 4
    S(23, 62), // passed rank 5
    S(85, 89), // passed rank 6
    S(162, 122), // passed rank 7
    S(0, 0), // passed rank 8
    S(0, 0), // connected rank 1
    S(4, -3), // connected rank 2
    S(6, -11), // connected rank 3
    S(5, 5), // connected rank 4
    S(-7, 31), // connected rank 5
    S(-34, 59), // connected rank 6
    S(20, 24), // connected rank 7
    S(21, 21), // connected rank 8
    S(12, -32), // doubled
    S(-16, -1), // isolated
    S(-2, -16), // backward
    S(4, -4), // shield edge 0 bucket 0
    S(16, 8), // shield edge 0 bucket 1
    S(22, -2), // shield edge 0 bucket 2
    S(0, 3), // shield edge 0 bucket 3
    S(24, -8), // shield edge 1 bucket 0
    S(6, 3), // shield edge 1 bucket 1
    S(-8, -6), // shield edge 1 bucket 2
    S(-14, 2), // shield edge 1 bucket 3
    S(8, 22), // shield edge 2 bucket 0
    S(-24, 33), // shield edge 2 bucket 1
    S(7, -7), // shield edge 2 bucket 2
    S(-23, 13), // shield edge 2 bucket 3
    S(10, 11), // shield edge 3 bucket 0
    S(-9, -1), // shield edge 3 bucket 1
    S(-2, -18), // shield edge 3 bucket 2
    S(-25, 11), // shield edge 3 bucket 3
    S(6, 29), // storm edge 0 bucket 0
    S(19, 7), // storm edge 0 bucket 1
    S(2, -7), // storm edge 0 bucket 2
    S(-16, -24), // storm edge 0 bucket 3
    S(11, 21), // storm edge 1 bucket 0
    S(-17, -10), // storm edge 1 bucket 1
    S(-11, -12), // storm edge 1 bucket 2
    S(-6, -7), // storm edge 1 bucket 3
    S(9, 53), // storm edge 2 bucket 0
    S(-12, 3), // storm edge 2 bucket 1
    S(-42, 7), // storm edge 2 bucket 2
    S(-19, -2), // storm edge 2 bucket 3
    S(3, 43), // storm edge 3 bucket 0
    S(-7, -10), // storm edge 3 bucket 1
    S(-28, -7), // storm edge 3 bucket 2
    S(-25, -22), // storm edge 3 bucket 3
    S(8, -7), // king attack knight
    S(2, -7), // king attack bishop
    S(22, -10), // king attack rook
    S(28, 13), // king attack queen
    S(58, 32), // bishop pair
    S(46, 3), // rook open file
    S(5, 19), // rook semi-open file
    S(-24, 31), // rook seventh
    S(10, 1), // tempo
    S(45, 30), // threat by pawn
    S(35, 25), // threat by minor
    S(35, 20), // threat by rook
    S(25, 15), // hanging
];
