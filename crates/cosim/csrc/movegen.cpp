// C interface to the verilated move generator, driven one clock at a time. Each command is one
// clock edge on the command port; generate() clocks until gen_done and collects the moves.
#include <cstdint>
#include "Vmovegen.h"
#include "clocked.h"

namespace {
// Clocks from a state-changing command until the registered in_check output describes the new
// board (ANALYSIS_LATENCY of hw/movegen/estuary_movegen.v).
constexpr int kAnalysisLatency = 10;

struct Sim : Clocked<Vmovegen> {
    int settle = 0;   // clocks until in_check describes the last command's board
    uint8_t checks[256] = {};   // the last generate's move_check flags
    uint32_t n_checks = 0;
    void tick() {
        Clocked::tick();
        if (settle > 0) --settle;
    }
};
}  // namespace

extern "C" {

void* estuary_movegen_new() {
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

void estuary_movegen_free(void* h) { delete static_cast<Sim*>(h); }

// One command (see hw/movegen/estuary_movegen.v). Returns 0 if the device was not ready.
int estuary_movegen_command(void* h, uint32_t cmd, uint32_t addr, uint32_t data) {
    Sim* s = static_cast<Sim*>(h);
    if (!s->top->ready) return 0;
    s->top->cmd_valid = 1;
    s->top->cmd = cmd;
    s->top->cmd_addr = addr;
    s->top->cmd_data = data;
    s->tick();
    s->top->cmd_valid = 0;
    if (cmd >= 1 && cmd <= 4) s->settle = kAnalysisLatency;
    return 1;
}

// Generates; writes up to `cap` moves to `out`, returns how many the device produced (or -1 if
// it did not finish within the cycle limit). `*cycles` gets the clocks from command to done.
int32_t estuary_movegen_generate(void* h, int captures_only, uint16_t* out, uint32_t cap, uint64_t* cycles) {
    Sim* s = static_cast<Sim*>(h);
    uint64_t start = s->cycles;
    if (!estuary_movegen_command(h, 5, 0, captures_only ? 1 : 0)) return -1;
    uint32_t n = 0;
    for (int guard = 0; guard < 4096; ++guard) {
        s->tick();
        if (s->top->move_valid) {
            if (n < cap) out[n] = s->top->move;
            if (n < 256) s->checks[n] = s->top->move_check;
            ++n;
        }
        if (s->top->gen_done) {
            *cycles = s->cycles - start;
            s->n_checks = n < 256 ? n : 256;
            return static_cast<int32_t>(n);
        }
    }
    return -1;
}

// Count-only generate: returns the device's legal-move count (-1 if it streamed a move or did
// not finish within the cycle limit). `*cycles` gets the clocks from command to done.
int32_t estuary_movegen_count(void* h, int captures_only, uint64_t* cycles) {
    Sim* s = static_cast<Sim*>(h);
    uint64_t start = s->cycles;
    if (!estuary_movegen_command(h, 5, 0, (captures_only ? 1 : 0) | 2)) return -1;
    for (int guard = 0; guard < 4096; ++guard) {
        s->tick();
        if (s->top->move_valid) return -1;
        if (s->top->gen_done) {
            *cycles = s->cycles - start;
            return static_cast<int32_t>(s->top->move_count);
        }
    }
    return -1;
}

// Clocks idle until the in-check flag has settled (counted in the cycles), then reads it.
int estuary_movegen_in_check(void* h) {
    Sim* s = static_cast<Sim*>(h);
    s->top->cmd_valid = 0;
    while (s->settle > 0) s->tick();
    return s->top->in_check;
}

// The last generate's gives-check flags, one a move in stream order: writes up to `cap`,
// returns how many there are.
uint32_t estuary_movegen_checks(void* h, uint8_t* out, uint32_t cap) {
    Sim* s = static_cast<Sim*>(h);
    uint32_t n = s->n_checks < cap ? s->n_checks : cap;
    for (uint32_t i = 0; i < n; ++i) out[i] = s->checks[i];
    return n;
}

uint64_t estuary_movegen_cycles(void* h) { return static_cast<Sim*>(h)->cycles; }
}
