// C interface to the verilated host interface (hw/host/estuary_host.v), driven at the pin: the
// harness plays the host's UART (bits onto uart_rx, a receiver on uart_tx) and the sequencer's
// side (the `busy` level, a report offered until acked, its PV read a clock after the
// address, the loader's checks on attacks, which pass two clocks after they start), and
// records each strobe with what the unit presents beside it.
#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>
#include "Vhost.h"
#include "uart.h"
#include "verilated.h"

namespace {
constexpr uint64_t kGuard = 100000000;

struct Event {
    uint8_t kind;  // 1 LOAD, 2 GO, 3 STOP, 4 CLEAR
    uint8_t depth;
    uint8_t hist_count;
    uint8_t position[42];
    uint64_t nodes;
    uint64_t clocks;
};

struct Sim {
    VerilatedContext ctx;
    Vhost* top;
    uint64_t cycles = 0;
    UartPeer uart;
    std::deque<Event> events;
    std::vector<uint16_t> pv;
    int atk_wait = 0;  // clocks until the loader's answer (0: none due)

    explicit Sim(uint32_t d) {
        uart.div = d;
        top = new Vhost(&ctx);
    }
    ~Sim() { top->final(); delete top; }

    void tick() {
        top->uart_rx = uart.next_level();
        uint8_t addr = top->pv_addr;
        top->atk_done = atk_wait == 1;
        top->atk_ok = 1;
        if (atk_wait) --atk_wait;
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
        ++cycles;
        top->pv_move = addr < pv.size() ? pv[addr] : 0;
        top->eval();
        if (top->atk_start) atk_wait = 2;
        uart.sample(top->uart_tx);
        record();
    }

    void record() {
        uint8_t kind = top->load_strobe ? 1 : top->go_strobe ? 2 : top->stop_strobe ? 3
                     : top->clear_strobe ? 4 : 0;
        if (!kind) return;
        Event e;
        std::memset(&e, 0, sizeof e);
        e.kind = kind;
        e.depth = top->go_depth;
        e.nodes = top->go_nodes;
        e.clocks = top->go_clocks;
        e.hist_count = top->hist_count;
        for (int i = 0; i < 42; ++i) e.position[i] = uint8_t(top->position[i / 4] >> (8 * (i % 4)));
        events.push_back(e);
    }

};
}  // namespace

extern "C" {

struct EstuaryHostEvent {
    uint8_t kind;
    uint8_t depth;
    uint8_t hist_count;
    uint8_t position[42];
    uint64_t nodes;
    uint64_t clocks;
};

void* estuary_host_new(uint32_t div, uint32_t timeout) {
    Sim* s = new Sim(div);
    s->top->baud_div = div;
    s->top->timeout = timeout;
    s->top->uart_rx = 1;
    s->top->rst = 1;
    for (int i = 0; i < 4; ++i) s->tick();
    s->top->rst = 0;
    s->tick();
    s->cycles = 0;
    s->events.clear();
    return s;
}

void estuary_host_free(void* h) { delete static_cast<Sim*>(h); }

// Sends `n` bytes at `bit` clocks a bit, each followed by `gap` idle clocks, and clocks until
// the last has gone out.
void estuary_host_send(void* h, const uint8_t* bytes, size_t n, uint32_t bit, uint32_t gap) {
    Sim* s = static_cast<Sim*>(h);
    for (size_t i = 0; i < n; ++i) {
        s->uart.queue_byte(bytes[i], bit);
        s->uart.queue_idle(gap);
    }
    while (!s->uart.line.empty()) s->tick();
}

void estuary_host_idle(void* h, uint64_t clocks) {
    Sim* s = static_cast<Sim*>(h);
    for (uint64_t i = 0; i < clocks; ++i) s->tick();
}

void estuary_host_set_busy(void* h, int busy) { static_cast<Sim*>(h)->top->busy = busy ? 1 : 0; }

// The bytes the host has received since the last call (at most cap; returns how many).
size_t estuary_host_take_tx(void* h, uint8_t* out, size_t cap) {
    return static_cast<Sim*>(h)->uart.take(out, cap);
}

// The oldest strobe not yet taken: 1 and *out, or 0 when there is none.
int estuary_host_take_event(void* h, EstuaryHostEvent* out) {
    Sim* s = static_cast<Sim*>(h);
    if (s->events.empty()) return 0;
    const Event& e = s->events.front();
    out->kind = e.kind;
    out->depth = e.depth;
    out->hist_count = e.hist_count;
    std::memcpy(out->position, e.position, 42);
    out->nodes = e.nodes;
    out->clocks = e.clocks;
    s->events.pop_front();
    return 1;
}

// History hash i of the loaded game, through the read port (one clock).
uint64_t estuary_host_history(void* h, uint32_t i) {
    Sim* s = static_cast<Sim*>(h);
    s->top->hist_addr = i;
    s->tick();
    return s->top->hist_data;
}

// Offers a report (final: BEST) until the unit acks it. Returns the clocks it waited, or -1 if
// no ack came.
int64_t estuary_host_report(void* h, int final, uint8_t depth, int16_t score, uint64_t nodes,
                            uint64_t clocks, int stopped, const uint16_t* pv, size_t n) {
    Sim* s = static_cast<Sim*>(h);
    s->pv.assign(pv, pv + n);
    s->top->rep_final = final ? 1 : 0;
    s->top->rep_depth = depth;
    s->top->rep_score = uint16_t(score);
    s->top->rep_nodes = nodes;
    s->top->rep_clocks = clocks;
    s->top->rep_stopped = stopped ? 1 : 0;
    s->top->rep_pv_len = uint8_t(n);
    s->top->rep_valid = 1;
    for (uint64_t g = 0; g < kGuard; ++g) {
        s->tick();
        if (s->top->rep_ack) {
            s->top->rep_valid = 0;
            return int64_t(g + 1);
        }
    }
    s->top->rep_valid = 0;
    return -1;
}

uint64_t estuary_host_cycles(void* h) { return static_cast<Sim*>(h)->cycles; }
}
