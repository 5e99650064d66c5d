// C interface to the verilated evaluation unit, driven one clock at a time. A command waits
// for `ready` (clocking idle, counted), is given for one clock edge, and returns the clocks it
// waited; eval() clocks until result_valid. peek() reads the accumulator stack's top through
// Verilator's public access (a test back door, no clock, no port on the chip).
#include <cstdint>
#include "Vevalunit.h"
#include "Vevalunit___024root.h"
#include "clocked.h"

namespace {
constexpr int kGuard = 100000;

struct Sim : Clocked<Vevalunit> {
    bool wait_ready() { return wait_until([](Vevalunit* v) { return v->ready != 0; }, kGuard); }
};
}  // namespace

extern "C" {

void* estuary_evalunit_new() {
    Sim* s = new Sim();
    s->top->cmd_valid = 0;
    s->top->rst = 1;
    s->tick();
    s->tick();
    s->top->rst = 0;
    s->tick();
    s->cycles = 0;
    return s;
}

void estuary_evalunit_free(void* h) { delete static_cast<Sim*>(h); }

// One command (see hw/evalunit/estuary_evalunit.v). Returns 0 if the unit never became ready.
int estuary_evalunit_command(void* h, uint32_t cmd, uint32_t addr, uint32_t data) {
    Sim* s = static_cast<Sim*>(h);
    if (!s->wait_ready()) return 0;
    s->top->cmd_valid = 1;
    s->top->cmd = cmd;
    s->top->cmd_addr = addr;
    s->top->cmd_data = data;
    s->tick();
    s->top->cmd_valid = 0;
    return 1;
}

// Waits until the unit is ready again (the last command done). Returns 0 if it never is.
int estuary_evalunit_settle(void* h) { return static_cast<Sim*>(h)->wait_ready() ? 1 : 0; }

// EVAL: writes the score and returns 1, or returns 0 if no result came.
int estuary_evalunit_eval(void* h, int32_t* score) {
    Sim* s = static_cast<Sim*>(h);
    if (!estuary_evalunit_command(h, 5, 0, 0)) return 0;
    for (int g = 0; g < kGuard; ++g) {
        s->top->eval();
        if (s->top->result_valid) {
            *score = static_cast<int32_t>(s->top->score);
            return 1;
        }
        s->tick();
    }
    return 0;
}

// The accumulator stack's top entry: 4 words of 1024 bits (White's lanes 0-63 and 64-127,
// then Black's; 32 x 32 bits each) into out[128]. The stack RAM is built in eight slices of
// 128 bits (acc_unit's `sslice`): slice g holds 32-bit words 4g to 4g + 3 of each word.
#define STACK_SLICE(g) r->estuary_evalunit__DOT__acc__DOT__sslice__BRA__##g##__KET____DOT__stack
void estuary_evalunit_peek(void* h, uint32_t* out) {
    Sim* s = static_cast<Sim*>(h);
    Vevalunit___024root* r = s->top->rootp;
    uint32_t top = r->estuary_evalunit__DOT__acc__DOT__top;
    for (uint32_t k = 0; k < 4; ++k) {
        uint32_t a = (top << 2) | k;
        const VlWide<4>* words[8] = {&STACK_SLICE(0)[a], &STACK_SLICE(1)[a], &STACK_SLICE(2)[a],
                                     &STACK_SLICE(3)[a], &STACK_SLICE(4)[a], &STACK_SLICE(5)[a],
                                     &STACK_SLICE(6)[a], &STACK_SLICE(7)[a]};
        for (int g = 0; g < 8; ++g)
            for (int i = 0; i < 4; ++i) out[32 * k + 4 * g + i] = (*words[g])[i];
    }
}

uint64_t estuary_evalunit_cycles(void* h) { return static_cast<Sim*>(h)->cycles; }
}
