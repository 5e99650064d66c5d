// Helpers every page shares: the JSON API and the server-sent events.

/** POSTs `body` as JSON (or GETs when `body` is undefined); resolves to the answer's JSON,
 *  rejects with an Error carrying the server's message. */
export async function api(path, body) {
    const init = body === undefined ? {} : {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify(body),
    }
    const response = await fetch(path, init)
    let json = null
    try { json = await response.json() } catch (e) { /* not JSON */ }
    if (!response.ok) {
        throw new Error(json && json.error ? json.error : `${response.status} ${response.statusText}`)
    }
    return json
}

/** Follows the server's events: `handlers` maps an event name to a function of its data. */
export function follow(handlers) {
    const source = new EventSource("/api/events")
    for (const [name, f] of Object.entries(handlers)) {
        source.addEventListener(name, e => f(JSON.parse(e.data)))
    }
    return source
}

/** mm:ss of a number of milliseconds (h:mm:ss from an hour on); with `tenths`, below
 *  10 seconds mm:ss.t, as a game clock shows its last seconds. */
export function clock(ms, tenths = false) {
    ms = Math.max(0, ms)
    const two = n => String(n).padStart(2, "0")
    const s = Math.floor(ms / 1000)
    if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`
    const text = `${two(Math.floor(s / 60))}:${two(s % 60)}`
    return tenths && ms < 10000 ? `${text}.${Math.floor(ms / 100) % 10}` : text
}

/** Shows `message` in the page's error line (an empty message clears it). */
export function showError(message) {
    const el = document.getElementById("error")
    if (el) el.textContent = message || ""
}

/** The cm-chessboard options all our boards use. */
export const BOARD_ASSETS = "/vendor/cm-chessboard/assets/"
