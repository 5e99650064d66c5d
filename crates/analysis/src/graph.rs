//! The evaluation graph of an annotated game, drawn as SVG.
//!
//! The evaluation after each ply, from White's view, in pawns clamped to ±8 (a mate is ±8):
//! the area between the curve and the zero line white where White is better, black where
//! Black is; move numbers along the bottom; each marked move a dot in its judgement's colour
//! (red `??`, orange `?`, yellow `?!`) whose tooltip names the move and the evaluations before
//! and after it.

use crate::annotate::AnnotatedGame;
use crate::judge::Judgement;
use chess::Color;
use core::fmt::Write;
use search::score::is_mate;

/// Pawns at the top and bottom of the graph; larger evaluations and mates are drawn there.
pub const CLAMP_PAWNS: f64 = 8.0;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 40.0;

/// Text made safe inside an SVG element or attribute.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A score from White's view in pawns, clamped to the graph.
fn pawns(score: i32) -> f64 {
    if is_mate(score) {
        CLAMP_PAWNS.copysign(f64::from(score))
    } else {
        (f64::from(score) / 100.0).clamp(-CLAMP_PAWNS, CLAMP_PAWNS)
    }
}

/// A score for a tooltip: `+1.25`, or `mate` / `-mate`.
fn short(score: i32) -> String {
    if is_mate(score) {
        if score > 0 { "mate" } else { "-mate" }.into()
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

/// The dot colour of a judgement.
fn colour(j: Judgement) -> &'static str {
    match j {
        Judgement::Blunder => "#d62728",
        Judgement::Mistake => "#ff7f0e",
        Judgement::Inaccuracy => "#e6c619",
        Judgement::Good => "none",
    }
}

/// The step between numbered moves, so that about a dozen numbers fit.
fn tick_step(moves: u32) -> u32 {
    [1, 2, 5, 10, 20, 50, 100]
        .into_iter()
        .find(|&s| moves / s <= 12)
        .unwrap_or(200)
}

/// The game's title line: `White - Black, Event, Result`.
fn title(a: &AnnotatedGame) -> String {
    let g = &a.game;
    let mut t = format!(
        "{} - {}",
        g.tag("White").unwrap_or("?"),
        g.tag("Black").unwrap_or("?")
    );
    if let Some(e) = g.tag("Event").filter(|e| !e.is_empty() && *e != "?") {
        t.push_str(", ");
        t.push_str(e);
    }
    t.push_str(", ");
    t.push_str(g.result.as_str());
    // Room for the legend beside it.
    if t.chars().count() > 64 {
        t = t.chars().take(63).collect::<String>() + "…";
    }
    t
}

/// The SVG document of `a`'s evaluation graph.
pub fn evaluation_graph(a: &AnnotatedGame) -> String {
    let scores = a.white_scores();
    let plies = scores.len().saturating_sub(1).max(1) as f64;
    let (pw, ph) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x = |k: usize| LEFT + k as f64 * pw / plies;
    let y = |pawns: f64| TOP + ph / 2.0 - pawns / CLAMP_PAWNS * ph / 2.0;
    let zero = y(0.0);
    let mut s = String::new();
    // Writing into a String cannot fail.
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let title = escape(&title(a));
    let _ = writeln!(s, "<title>{title}</title>");
    let _ = writeln!(
        s,
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#f4f4f4\"/>\n\
         <text x=\"{LEFT}\" y=\"18\" font-size=\"13\" font-weight=\"bold\">{title}</text>"
    );
    let _ = writeln!(
        s,
        "<defs><clipPath id=\"white-side\"><rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{:.2}\"/></clipPath>\
         <clipPath id=\"black-side\"><rect x=\"{LEFT}\" y=\"{zero:.2}\" width=\"{pw}\" height=\"{:.2}\"/></clipPath></defs>",
        zero - TOP,
        TOP + ph - zero
    );
    let _ = writeln!(
        s,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{ph}\" fill=\"#b8b8b8\"/>"
    );
    // The area between the curve and the zero line, drawn twice: white above, black below.
    let mut area = format!("{:.2},{zero:.2}", x(0));
    let mut curve = String::new();
    for (k, &sc) in scores.iter().enumerate() {
        let _ = write!(area, " {:.2},{:.2}", x(k), y(pawns(sc)));
        let _ = write!(curve, "{:.2},{:.2} ", x(k), y(pawns(sc)));
    }
    let _ = write!(area, " {:.2},{zero:.2}", x(scores.len().saturating_sub(1)));
    for (clip, fill) in [("white-side", "#ffffff"), ("black-side", "#202020")] {
        let _ = writeln!(
            s,
            "<polygon points=\"{area}\" fill=\"{fill}\" clip-path=\"url(#{clip})\"/>"
        );
    }
    // Pawn lines every 2, labelled on the left.
    let mut p = -CLAMP_PAWNS;
    while p <= CLAMP_PAWNS {
        let (yy, w) = (y(p), if p == 0.0 { "1" } else { "0.5" });
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{yy:.2}\" x2=\"{:.2}\" y2=\"{yy:.2}\" stroke=\"#707070\" stroke-width=\"{w}\"/>\
             <text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\">{}</text>",
            LEFT + pw,
            LEFT - 5.0,
            yy + 4.0,
            if p > 0.0 { format!("+{p}") } else { format!("{p}") }
        );
        p += 2.0;
    }
    let _ = writeln!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\"/>",
        curve.trim_end()
    );
    // Move numbers: under the point after White's move (or Black's, in a game of one).
    let mut board = a.game.start;
    let last = board.fullmove_number() + (scores.len() as u32) / 2;
    let step = tick_step(last.saturating_sub(board.fullmove_number()).max(1));
    let mut marks = String::new();
    for (i, m) in a.game.moves().enumerate() {
        let number = board.fullmove_number();
        let white = board.side_to_move() == Color::White;
        let san = board.move_to_san(m);
        if white && number.is_multiple_of(step) {
            let xx = x(i + 1);
            let _ = writeln!(
                s,
                "<line x1=\"{xx:.2}\" y1=\"{:.2}\" x2=\"{xx:.2}\" y2=\"{:.2}\" stroke=\"#707070\"/>\
                 <text x=\"{xx:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{number}</text>",
                TOP + ph,
                TOP + ph + 4.0,
                TOP + ph + 16.0
            );
        }
        let j = a.judgements.get(i).copied().unwrap_or(Judgement::Good);
        if j != Judgement::Good {
            let dots = if white { "." } else { "..." };
            let _ = writeln!(
                marks,
                "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"4.5\" fill=\"{}\" stroke=\"#000\" stroke-width=\"0.8\">\
                 <title>{number}{dots} {}{}  {} to {}</title></circle>",
                x(i + 1),
                y(pawns(scores[i + 1])),
                colour(j),
                escape(&san),
                j.suffix(),
                short(scores[i]),
                short(scores[i + 1])
            );
        }
        board.play(m);
    }
    s.push_str(&marks);
    let _ = writeln!(
        s,
        "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">move</text>\
         <text x=\"12\" y=\"{:.2}\" transform=\"rotate(-90 12 {:.2})\" text-anchor=\"middle\">pawns (White +)</text>",
        LEFT + pw / 2.0,
        HEIGHT - 6.0,
        TOP + ph / 2.0,
        TOP + ph / 2.0
    );
    // The legend with the counts, top right.
    let mut lx = WIDTH - RIGHT - 330.0;
    for (j, name) in [
        (Judgement::Blunder, "blunder"),
        (Judgement::Mistake, "mistake"),
        (Judgement::Inaccuracy, "inaccuracy"),
    ] {
        let _ = writeln!(
            s,
            "<circle cx=\"{lx:.2}\" cy=\"30\" r=\"4.5\" fill=\"{}\" stroke=\"#000\" stroke-width=\"0.8\"/>\
             <text x=\"{:.2}\" y=\"34\">{} {name} {}</text>",
            colour(j),
            lx + 8.0,
            j.suffix(),
            a.count(j)
        );
        lx += 110.0;
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_scores_clamped() {
        assert_eq!(escape("a<b>&\"c'\n"), "a&lt;b&gt;&amp;&quot;c&apos; ");
        assert_eq!(pawns(2500), CLAMP_PAWNS);
        assert_eq!(pawns(-search::score::MATE + 3), -CLAMP_PAWNS);
        assert_eq!(pawns(-150), -1.5);
        assert_eq!(tick_step(8), 1);
        assert_eq!(tick_step(40), 5);
        assert_eq!(tick_step(120), 10);
    }
}
