// C interface to the verilated search machine (hw/chip/estuary_chip.v), driven at its pins
// as a board's USB-serial bridge would: request bytes go onto uart_rx a bit at a time, a
// receiver samples uart_tx, and the stop pin is a level. The caller queues bytes, runs clocks
// and takes what the chip sent.
#include <cstdint>
#include "Vchip.h"
#include "clocked.h"
#include "uart.h"

namespace {
struct Sim : Clocked<Vchip> {
    UartPeer uart;

    void step() {
        top->uart_rx = uart.next_level();
        tick();
        uart.sample(top->uart_tx);
    }
};
}  // namespace

extern "C" {

// A reset chip: `div` clocks a bit, `timeout` clocks without a byte cut a frame short; the
// sequencer's build-time choices (null move, LMR, late-move pruning, the table's read clocks).
void* estuary_chip_new(uint32_t div, uint32_t timeout, uint32_t null_move, uint32_t lmr,
                       uint32_t lmp, uint32_t tt_clocks) {
    Sim* s = new Sim();
    s->uart.div = div;
    Vchip* t = s->top;
    t->baud_div = div;
    t->timeout = timeout;
    t->uart_rx = 1;
    t->stop_pin = 0;
    t->cfg_null = null_move ? 1 : 0;
    t->cfg_lmr = lmr ? 1 : 0;
    t->cfg_lmp = lmp ? 1 : 0;
    t->cfg_tt_clocks = tt_clocks;
    t->rst = 1;
    for (int i = 0; i < 4; ++i) s->step();
    t->rst = 0;
    // The CLEAR that follows the reset.
    for (int i = 0; i < 4; ++i) s->step();
    while (t->searching) s->step();
    s->cycles = 0;
    return s;
}

void estuary_chip_free(void* h) { delete static_cast<Sim*>(h); }

// Queues `n` bytes onto the line, each followed by `gap` idle clocks.
void estuary_chip_send(void* h, const uint8_t* bytes, size_t n, uint32_t gap) {
    Sim* s = static_cast<Sim*>(h);
    for (size_t i = 0; i < n; ++i) {
        s->uart.queue_byte(bytes[i], s->uart.div);
        s->uart.queue_idle(gap);
    }
}

// Runs `clocks` clocks.
void estuary_chip_run(void* h, uint64_t clocks) {
    Sim* s = static_cast<Sim*>(h);
    for (uint64_t i = 0; i < clocks; ++i) s->step();
}

// Levels still queued on the line (0: every byte sent has gone in).
uint64_t estuary_chip_line(void* h) { return static_cast<Sim*>(h)->uart.line.size(); }

// The bytes the chip has sent since the last call (at most cap; returns how many).
size_t estuary_chip_take_tx(void* h, uint8_t* out, size_t cap) {
    return static_cast<Sim*>(h)->uart.take(out, cap);
}

// 1 while the receiver is inside a byte of uart_tx.
int estuary_chip_receiving(void* h) { return static_cast<Sim*>(h)->uart.rx_state; }

void estuary_chip_stop_pin(void* h, int level) {
    static_cast<Sim*>(h)->top->stop_pin = level ? 1 : 0;
}

// 1 while a search runs.
int estuary_chip_searching(void* h) { return static_cast<Sim*>(h)->top->searching; }

uint64_t estuary_chip_cycles(void* h) { return static_cast<Sim*>(h)->cycles; }
}
