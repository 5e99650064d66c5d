// The analysis page: the server analyses the shown position without end (MultiPV lines come
// as `analysis` events); a game loaded from PGN is searched position by position for its
// evaluation graph, and each step through it restarts the analysis there.
import {Chessboard, COLOR, FEN} from "/vendor/cm-chessboard/src/Chessboard.js"
import {Arrows, ARROW_TYPE} from "/vendor/cm-chessboard/src/extensions/arrows/Arrows.js"
import {api, follow, showError, BOARD_ASSETS} from "/static/common.js"

const $ = id => document.getElementById(id)
const board = new Chessboard($("board"), {
    position: FEN.start,
    assetsUrl: BOARD_ASSETS,
    style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 100},
    extensions: [{class: Arrows}],
})

// The game being stepped through: its positions, moves and evaluations.
let game = {fens: [null], moves: [], evals: []}
let startFen = null
let ply = 0
let current = null // the id of the analysis shown
let lines = []

async function analyse() {
    const fen = game.fens[ply] || startFen || undefined
    board.setPosition(fen || FEN.start, true)
    board.removeArrows()
    lines = []
    $("lines").textContent = ""
    const moves = game.moves.slice(0, ply).map(m => m.uci)
    try {
        showError("")
        const answer = await api("/api/analyse/start", {
            fen: game.fens[0] || startFen || undefined,
            moves,
            multipv: parseInt($("multipv").value, 10),
        })
        current = answer.searching ? answer.id : null
        $("summary").textContent = answer.over ? `No legal move: ${answer.over}.` : "Analysing…"
    } catch (e) {
        showError(e.message)
    }
    drawMoves()
    drawGraph()
}

function showLine(info) {
    if (info.id !== current) return
    lines[info.multipv - 1] = info
    // The best line's win, draw and loss chances (UCI_ShowWDL's model), from White's side.
    const [w, d, l] = (lines[0] || info).wdl.map(x => (x / 10).toFixed(1))
    $("summary").textContent =
        `depth ${info.depth}/${info.seldepth}  nodes ${info.nodes}  ${(info.nps / 1000).toFixed(0)} kN/s  ${(info.time_ms / 1000).toFixed(1)} s` +
        `  White: win ${w}% draw ${d}% loss ${l}%`
    const box = $("lines")
    box.innerHTML = ""
    board.removeArrows()
    lines.forEach((l, i) => {
        if (!l) return
        const row = document.createElement("div")
        const score = document.createElement("span")
        score.className = "score"
        score.textContent = l.score
        row.appendChild(score)
        row.appendChild(document.createTextNode(` d${l.depth}  ${l.pv_san}`))
        box.appendChild(row)
        if (l.pv.length) {
            board.addArrow(i === 0 ? ARROW_TYPE.success : ARROW_TYPE.secondary, l.pv[0].slice(0, 2), l.pv[0].slice(2, 4))
        }
    })
}

function drawMoves() {
    const list = $("moves")
    list.innerHTML = ""
    game.moves.forEach((m, i) => {
        if (i === 0 || m.number.endsWith(".") && !m.number.endsWith("...")) {
            const n = document.createElement("span")
            n.className = "num"
            n.textContent = m.number
            list.appendChild(n)
        }
        const el = document.createElement("span")
        el.className = "move" + (i + 1 === ply ? " current" : "")
        el.textContent = m.san
        if (m.judgement) {
            const j = document.createElement("span")
            j.className = "judgement"
            j.textContent = m.judgement
            el.appendChild(j)
        }
        el.addEventListener("click", () => go(i + 1))
        list.appendChild(el)
    })
}

/** The evaluation graph: White's expected score after each move, the current ply marked. */
function drawGraph() {
    const svg = $("graph")
    const n = game.evals.length
    if (n < 2) { svg.innerHTML = ""; return }
    const x = i => i * 600 / (n - 1)
    const y = cp => 70 - 66 * (2 / (1 + Math.exp(-cp / 250)) - 1)
    const points = game.evals.map((e, i) => `${x(i).toFixed(1)},${y(e.cp).toFixed(1)}`)
    svg.innerHTML =
        `<polygon points="0,70 ${points.join(" ")} 600,70" fill="#ddd" stroke="none"/>` +
        `<polyline points="${points.join(" ")}" fill="none" stroke="#2c3e50" stroke-width="1.5"/>` +
        `<line x1="0" y1="70" x2="600" y2="70" stroke="#999" stroke-dasharray="4 3"/>` +
        `<line x1="${x(ply)}" y1="0" x2="${x(ply)}" y2="140" stroke="#c0392b" stroke-width="2"/>`
}

function go(p) {
    ply = Math.max(0, Math.min(game.moves.length, p))
    analyse()
}

$("graph").addEventListener("click", e => {
    const r = $("graph").getBoundingClientRect()
    go(Math.round((e.clientX - r.left) / r.width * (game.evals.length - 1)))
})
$("first").addEventListener("click", () => go(0))
$("prev").addEventListener("click", () => go(ply - 1))
$("next").addEventListener("click", () => go(ply + 1))
$("last").addEventListener("click", () => go(game.moves.length))
$("flip").addEventListener("click", () =>
    board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white))
$("multipv").addEventListener("change", analyse)
$("analyse-fen").addEventListener("click", () => {
    startFen = $("fen").value.trim() || null
    game = {fens: [startFen], moves: [], evals: []}
    ply = 0
    analyse()
})
$("stop").addEventListener("click", async () => {
    current = null
    try { await api("/api/analyse/stop", {}) } catch (e) { showError(e.message) }
    $("summary").textContent += "  (stopped)"
})
$("load").addEventListener("click", async () => {
    showError("")
    $("summary").textContent = "Searching every position of the game…"
    try {
        await api("/api/analyse/stop", {})
        const g = await api("/api/analyse/game", {pgn: $("pgn").value, nodes: parseInt($("nodes").value, 10)})
        game = g
        startFen = g.fens[0]
        if (g.pgn_error) showError(`The rest of the text was not read: ${g.pgn_error}`)
        go(0)
    } catch (e) {
        showError(e.message)
    }
})
window.addEventListener("pagehide", () => navigator.sendBeacon("/api/analyse/stop"))
follow({analysis: showLine})
analyse()
