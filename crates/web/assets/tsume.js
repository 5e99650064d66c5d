// The tsume page: the problem goes to the server's df-pn solver; the mating line comes back
// with the position after every move, drawn by shogi-board.js and stepped through here.
import {api, showError} from "/static/common.js"
import {shogiSvg, moveName} from "/static/shogi-board.js"

const $ = id => document.getElementById(id)
let solution = {sfens: [], moves: []}
let ply = 0

function show() {
    const sfen = solution.sfens[ply] || $("sfen").value
    const last = ply > 0 ? solution.moves[ply - 1] : null
    try {
        $("shogi").innerHTML = shogiSvg(sfen, last ? last.replace("+", "").slice(-2) : null)
    } catch (e) {
        $("shogi").textContent = "(this SFEN cannot be drawn)"
    }
    document.querySelectorAll("#line .move").forEach((el, i) => el.classList.toggle("current", i + 1 === ply))
}

function go(p) {
    ply = Math.max(0, Math.min(solution.moves.length, p))
    show()
}

$("solve").addEventListener("click", async () => {
    showError("")
    $("verdict").textContent = "Solving…"
    $("line").innerHTML = ""
    solution = {sfens: [], moves: []}
    ply = 0
    show()
    try {
        const s = await api("/api/tsume", {sfen: $("sfen").value})
        solution = s
        const what = {mate: `Mate in ${s.moves.length} plies`, nomate: "No mate", unknown: "Not solved within the limits"}[s.verdict]
        $("verdict").textContent = `${what}${s.shortest ? " (shortest, proven)" : ""}: ${s.nodes} nodes, ${s.time_ms} ms`
        s.moves.forEach((m, i) => {
            const el = document.createElement("span")
            el.className = "move"
            el.dataset.usi = m
            el.textContent = moveName(s.sfens[i], m)
            el.title = m
            el.addEventListener("click", () => go(i + 1))
            $("line").appendChild(el)
        })
        go(0)
    } catch (e) {
        $("verdict").textContent = ""
        showError(e.message)
    }
})
$("examples").addEventListener("change", () => { $("sfen").value = $("examples").value; solution = {sfens: [], moves: []}; go(0) })
$("sfen").addEventListener("input", () => { solution = {sfens: [], moves: []}; go(0) })
$("first").addEventListener("click", () => go(0))
$("prev").addEventListener("click", () => go(ply - 1))
$("next").addEventListener("click", () => go(ply + 1))
$("last").addEventListener("click", () => go(solution.moves.length))
show()
