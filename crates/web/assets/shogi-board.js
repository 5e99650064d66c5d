// A shogi board drawn by us in SVG from an SFEN: the 9x9 board with file numbers and rank
// numerals, each piece a pentagon with its kanji (the defender's turned round), and both
// hands. Also a move's name in Japanese notation.

const KANJI = {K: "王", k: "玉", R: "飛", B: "角", G: "金", S: "銀", N: "桂", L: "香", P: "歩",
    "+R": "龍", "+B": "馬", "+S": "全", "+N": "圭", "+L": "杏", "+P": "と"}
const RANKS = "一二三四五六七八九"
const FILES = "１２３４５６７８９"
const HAND_ORDER = "RBGSNLP"
const SQ = 40, TOP = 44, LEFT = 6

/** The board of an SFEN: board[rank][file index from the left (file 9)] = "P", "+p", ... or null;
 *  hands: {b: {P: 2, ...}, w: {...}}, and the side to move. */
export function parseSfen(sfen) {
    const [placement, side, hands] = sfen.trim().replace(/^sfen\s+/, "").split(/\s+/)
    const board = placement.split("/").map(row => {
        const out = []
        for (let i = 0; i < row.length; i++) {
            const c = row[i]
            if (/[0-9]/.test(c)) { for (let k = 0; k < parseInt(c, 10); k++) out.push(null) }
            else if (c === "+") { out.push("+" + row[++i]) }
            else out.push(c)
        }
        return out
    })
    const hand = {b: {}, w: {}}
    let count = ""
    for (const c of hands || "-") {
        if (c === "-") continue
        if (/[0-9]/.test(c)) { count += c; continue }
        const owner = c === c.toUpperCase() ? "b" : "w"
        hand[owner][c.toUpperCase()] = (hand[owner][c.toUpperCase()] || 0) + (count ? parseInt(count, 10) : 1)
        count = ""
    }
    return {board, hand, side}
}

/** The square of a USI square ("7g"): [rank index, file index from the left]. */
function square(usi) {
    return [usi.charCodeAt(1) - 97, 9 - parseInt(usi[0], 10)]
}

/** The name of USI move `usi` played in `sfen` in Japanese notation: ☗７六歩 (side, file, rank,
 *  piece), a drop ending in 打, a promotion in 成 (同 for a recapture is not used). */
export function moveName(sfen, usi) {
    const {board, side} = parseSfen(sfen)
    const mark = side === "b" ? "☗" : "☖"
    const to = usi.slice(2, 4)
    const where = FILES[parseInt(to[0], 10) - 1] + RANKS[to.charCodeAt(1) - 97]
    if (usi[1] === "*") return `${mark}${where}${KANJI[usi[0]]}打`
    const [r, f] = square(usi.slice(0, 2))
    const piece = board[r][f] || "?"
    const base = piece.startsWith("+") ? "+" + piece[1].toUpperCase() : piece === "k" ? "k" : piece.toUpperCase()
    return `${mark}${where}${KANJI[base] || "?"}${usi.endsWith("+") ? "成" : ""}`
}

function pieceSvg(piece, x, y, last) {
    const gote = piece.replace("+", "") === piece.replace("+", "").toLowerCase()
    const key = piece.startsWith("+") ? "+" + piece[1].toUpperCase() : (piece.toUpperCase() === "K" && gote ? "k" : piece.toUpperCase())
    const cx = x + SQ / 2, cy = y + SQ / 2
    const turn = gote ? ` transform="rotate(180 ${cx} ${cy})"` : ""
    const colour = piece.startsWith("+") ? "#b00" : "#111"
    return `<g class="piece" data-piece="${piece}"${turn}>` +
        `<path d="M${cx} ${y + 3} L${x + SQ - 7} ${y + 10} L${x + SQ - 4} ${y + SQ - 3} L${x + 4} ${y + SQ - 3} L${x + 7} ${y + 10} Z" fill="${last ? "#f5d77a" : "#f3dca8"}" stroke="#7a5a22" stroke-width="1"/>` +
        `<text x="${cx}" y="${cy + 7}" font-size="19" text-anchor="middle" fill="${colour}" font-family="serif">${KANJI[key]}</text></g>`
}

function handText(hand) {
    const parts = [...HAND_ORDER].filter(k => hand[k]).map(k => KANJI[k] + (hand[k] > 1 ? hand[k] : ""))
    return parts.length ? parts.join(" ") : "なし"
}

/** SVG text of the position `sfen`; `lastTo` (a USI square such as "2b") is highlighted. */
export function shogiSvg(sfen, lastTo) {
    const {board, hand, side} = parseSfen(sfen)
    const width = LEFT + 9 * SQ + 26, height = TOP + 9 * SQ + 36
    let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" class="shogi-board">`
    s += `<rect x="0" y="0" width="${width}" height="${height}" fill="#f4f1ea"/>`
    s += `<text x="${LEFT}" y="16" font-size="15" data-hand="w">☖ hand: ${handText(hand.w)}${side === "w" ? "  (to move)" : ""}</text>`
    s += `<rect x="${LEFT}" y="${TOP}" width="${9 * SQ}" height="${9 * SQ}" fill="#e8c67a" stroke="#5a4010" stroke-width="2"/>`
    for (let i = 0; i < 9; i++) {
        s += `<text x="${LEFT + i * SQ + SQ / 2}" y="${TOP - 6}" font-size="12" text-anchor="middle">${9 - i}</text>`
        s += `<text x="${LEFT + 9 * SQ + 13}" y="${TOP + i * SQ + SQ / 2 + 5}" font-size="13" text-anchor="middle">${RANKS[i]}</text>`
    }
    let target = lastTo ? square(lastTo) : null
    for (let r = 0; r < 9; r++) {
        for (let f = 0; f < 9; f++) {
            const x = LEFT + f * SQ, y = TOP + r * SQ
            const last = target && target[0] === r && target[1] === f
            s += `<rect x="${x}" y="${y}" width="${SQ}" height="${SQ}" fill="${last ? "#f7e3a1" : "none"}" stroke="#5a4010" stroke-width="0.8" data-square="${9 - f}${String.fromCharCode(97 + r)}"/>`
            const p = board[r] && board[r][f]
            if (p) s += pieceSvg(p, x, y, last)
        }
    }
    s += `<text x="${LEFT}" y="${TOP + 9 * SQ + 24}" font-size="15" data-hand="b">☗ hand: ${handText(hand.b)}${side === "b" ? "  (to move)" : ""}</text>`
    return s + "</svg>"
}
