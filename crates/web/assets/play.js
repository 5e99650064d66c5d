// The play page: the person's moves go to the server as JSON, the game comes back in the
// answers and in the server's `play` events; `thinking` events show the engine's search.
import {Chessboard, COLOR, FEN, INPUT_EVENT_TYPE} from "/vendor/cm-chessboard/src/Chessboard.js"
import {Markers, MARKER_TYPE} from "/vendor/cm-chessboard/src/extensions/markers/Markers.js"
import {PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE} from "/vendor/cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js"
import {Chess} from "/vendor/chess.js/dist/esm/chess.js"
import {api, follow, clock, showError, BOARD_ASSETS} from "/static/common.js"

const $ = id => document.getElementById(id)
let state = null
let receivedAt = 0

const board = new Chessboard($("board"), {
    position: FEN.start,
    assetsUrl: BOARD_ASSETS,
    style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 150},
    extensions: [{class: Markers, props: {autoMarkers: MARKER_TYPE.frame}}, {class: PromotionDialog}],
})

for (let l = 0; l <= 20; l++) {
    const o = document.createElement("option")
    o.value = l
    o.textContent = l === 20 ? "20 (full)" : String(l)
    $("level").appendChild(o)
}
$("level").value = "10"

/** Shows the inputs the chosen engine strength and clock need. With a game clock the
 *  engine's time comes from it, so there is no time a move to give. */
function showMode() {
    const mode = $("mode").value
    const timed = $("clock").value !== "none"
    $("mode").options[0].textContent = timed ? "full strength" : "time a move"
    $("seconds").style.display = mode === "time" && !timed ? "" : "none"
    $("level").style.display = mode === "level" ? "" : "none"
    $("elo").style.display = mode === "elo" ? "" : "none"
    $("custom-clock").style.display = $("clock").value === "custom" ? "" : "none"
}
$("mode").addEventListener("change", showMode)
$("clock").addEventListener("change", showMode)
showMode()

/** The new game's `clock` from the page's choice: null for an untimed game. */
function chosenClock() {
    const choice = $("clock").value
    if (choice === "none") return null
    const [minutes, seconds] = choice === "custom"
        ? [parseFloat($("minutes").value), parseFloat($("increment").value || "0")]
        : choice.split("+").map(Number)
    // A custom value that is not a number goes as null: the server says what is wrong.
    const ms = x => Number.isFinite(x) ? Math.round(x * 1000) : null
    return {base_ms: ms(minutes * 60), increment_ms: ms(seconds)}
}

/** Sets the clock choice to the game's time control (after a reload). */
function showClockChoice(control) {
    if (!control) {
        $("clock").value = "none"
    } else {
        const text = `${control.base_ms / 60000}+${control.increment_ms / 1000}`
        if ([...$("clock").options].some(o => o.value === text)) {
            $("clock").value = text
        } else {
            $("clock").value = "custom"
            $("minutes").value = control.base_ms / 60000
            $("increment").value = control.increment_ms / 1000
        }
    }
    showMode()
}

/** Shows the game `s` (the server's state). */
async function render(s) {
    if (state && s.version < state.version) return
    state = s
    receivedAt = performance.now()
    window.estuary = {state}
    // The move list.
    const list = $("moves")
    list.innerHTML = ""
    const startBlack = s.start_fen.split(" ")[1] === "b"
    let number = parseInt(s.start_fen.split(" ")[5] || "1", 10)
    s.moves.forEach((m, i) => {
        const white = (i % 2 === 0) !== startBlack
        if (white || i === 0) {
            const n = document.createElement("span")
            n.className = "num"
            n.textContent = white ? `${number}.` : `${number}...`
            list.appendChild(n)
        }
        const el = document.createElement("span")
        el.className = "move" + (i === s.moves.length - 1 ? " current" : "")
        el.dataset.uci = m.uci
        el.dataset.by = m.by
        el.textContent = m.san + (m.by === "book" ? " (book)" : "")
        list.appendChild(el)
        if (!white) number++
    })
    list.scrollTop = list.scrollHeight
    // The status line.
    const status = $("status")
    status.className = s.over ? "over" : ""
    if (s.over) {
        status.textContent = `Game over: ${s.over.result} (${s.over.reason})`
    } else if (s.thinking) {
        status.textContent = "The engine is thinking…"
    } else if (s.turn === s.human) {
        status.textContent = (s.check ? "Check! " : "") + "Your move."
    } else {
        status.textContent = "The engine's move."
    }
    $("movenow").disabled = !s.thinking
    $("undo").disabled = !s.moves.some(m => m.by === "human")
    tick()
    // The board, then the move input.
    const chess = new Chess(s.fen)
    board.disableMoveInput()
    window.estuary.input = false
    board.removeMarkers(MARKER_TYPE.square)
    await board.setPosition(s.fen, true)
    if (s !== state) return
    if (s.moves.length) {
        const last = s.moves[s.moves.length - 1].uci
        board.addMarker(MARKER_TYPE.square, last.slice(0, 2))
        board.addMarker(MARKER_TYPE.square, last.slice(2, 4))
    }
    // `estuary.input`: the board takes the person's move (after the position is drawn).
    if (!s.over && !s.thinking && s.turn === s.human) {
        board.enableMoveInput(event => onInput(event, chess), s.human === "white" ? COLOR.white : COLOR.black)
        window.estuary.input = true
    }
}

/** cm-chessboard's move input: only legal moves (chess.js) are sent to the server. */
function onInput(event, chess) {
    switch (event.type) {
        case INPUT_EVENT_TYPE.moveInputStarted: {
            const moves = chess.moves({square: event.squareFrom, verbose: true})
            board.addLegalMovesMarkers(moves)
            return moves.length > 0
        }
        case INPUT_EVENT_TYPE.validateMoveInput: {
            board.removeLegalMovesMarkers()
            const from = event.squareFrom, to = event.squareTo
            const moves = chess.moves({square: from, verbose: true}).filter(m => m.to === to)
            if (!moves.length) return false
            if (moves[0].promotion) {
                board.showPromotionDialog(to, state.human === "white" ? COLOR.white : COLOR.black, result => {
                    if (result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected) {
                        send(from + to + result.piece.charAt(1))
                    } else {
                        board.setPosition(state.fen, true)
                    }
                })
                return true
            }
            send(from + to)
            return true
        }
        case INPUT_EVENT_TYPE.moveInputCanceled:
            board.removeLegalMovesMarkers()
            return true
        default:
            return true
    }
}

async function send(uci) {
    board.disableMoveInput()
    try {
        showError("")
        await render(await api("/api/play/move", {move: uci}))
    } catch (e) {
        showError(e.message)
        if (state) await render(state)
    }
}

async function run(path, body = {}) {
    try {
        showError("")
        const answer = await api(path, body)
        if (answer && answer.fen) await render(answer)
    } catch (e) {
        showError(e.message)
    }
}

$("new").addEventListener("click", () => {
    const colour = $("colour").value
    const body = {colour, book: $("book").checked}
    const mode = $("mode").value
    const gameClock = chosenClock()
    if (gameClock) body.clock = gameClock
    else if (mode === "time") body.movetime_ms = Math.round(parseFloat($("seconds").value) * 1000)
    if (mode === "level") body.level = parseInt($("level").value, 10)
    if (mode === "elo") body.elo = parseInt($("elo").value, 10)
    board.setOrientation(colour === "white" ? COLOR.white : COLOR.black)
    run("/api/play/new", body)
})
$("movenow").addEventListener("click", () => run("/api/play/stop"))
$("undo").addEventListener("click", () => run("/api/play/undo"))
$("flip").addEventListener("click", () =>
    board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white))
$("copy").addEventListener("click", async () => {
    try {
        await navigator.clipboard.writeText(state.pgn)
        showError("PGN copied.")
    } catch (e) {
        showError("The browser refused the clipboard; use Download PGN.")
    }
})
$("download").addEventListener("click", () => {
    const a = document.createElement("a")
    a.href = URL.createObjectURL(new Blob([state.pgn], {type: "application/x-chess-pgn"}))
    a.download = "estuary-game.pgn"
    a.click()
    URL.revokeObjectURL(a.href)
})

/** The clocks as the server last sent them, the side to move's still running: with a
 *  time control each side's time left, counting down (the server decides the flag's fall
 *  and sends it); untimed, each side's thinking time used, counting up. */
function tick() {
    if (!state) return
    const c = state.clocks
    for (const side of ["white", "black"]) {
        let ms = c[side + "_ms"]
        const running = c.running === side
        if (running) ms += (c.timed ? -1 : 1) * (performance.now() - receivedAt)
        const el = $("clock-" + side)
        el.textContent = `${side === "white" ? "White" : "Black"} ${clock(ms, c.timed)}`
        el.classList.toggle("running", running)
        el.classList.toggle("low", c.timed && ms < 10000)
        el.classList.toggle("flagged", c.flagged === side)
    }
    const control = state.settings.clock
    $("clock-kind").textContent = control ? controlText(control) : "untimed: time used"
}

/** A time control as minutes + increment seconds (`3+2`); a base under a minute in seconds. */
function controlText(control) {
    const base = control.base_ms < 60000
        ? `${control.base_ms / 1000} s` : String(+(control.base_ms / 60000).toFixed(2))
    return `${base}+${control.increment_ms / 1000}`
}
setInterval(tick, 100)

follow({
    play: s => render(s),
    thinking: i => {
        $("thinking").textContent = `depth ${i.depth}  ${i.score}  ${(i.nps / 1000).toFixed(0)} kN/s  ${i.pv_san}`
    },
})
api("/api/play").then(s => {
    board.setOrientation(s.human === "white" ? COLOR.white : COLOR.black)
    $("colour").value = s.human
    $("book").checked = s.settings.book
    // The Elo choice's range is the calibrated one (uci::strength).
    const [lo, hi] = s.settings.elo_range
    $("elo").min = lo
    $("elo").max = hi
    showClockChoice(s.settings.clock)
    return render(s)
}).catch(e => showError(e.message))
