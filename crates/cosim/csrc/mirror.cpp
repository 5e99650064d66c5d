// C interface to the verilated mirror of the search machine (hw/chip/mirror.v), one clock at
// a time: a command takes three clocks, the move alone on the input for two (the mirror
// prepares), then the command for one clock edge, with the words the mirror prepared read
// before that edge; its state is read between clocks.
#include <cstdint>
#include "Vmirror.h"
#include "clocked.h"

namespace {
constexpr int kGuard = 1000;

struct Sim : Clocked<Vmirror> {};
}  // namespace

extern "C" {

struct EstuaryMirrorState {
    uint64_t hash;
    uint32_t undo_word;
    uint8_t halfmove;
    uint8_t black;
    uint8_t rights;
    uint8_t ep_file;
    uint8_t ply;
    uint8_t busy;
};

void* estuary_mirror_new() {
    Sim* s = new Sim();
    s->top->rst = 1;
    s->tick();
    s->tick();
    s->top->rst = 0;
    s->tick();
    s->cycles = 0;
    return s;
}

void estuary_mirror_free(void* h) { delete static_cast<Sim*>(h); }

// LOAD of a 42-byte position; returns the clocks until the mirror was ready, or -1.
int32_t estuary_mirror_load(void* h, const uint8_t* pos) {
    Sim* s = static_cast<Sim*>(h);
    for (int w = 0; w < 11; ++w) {
        uint32_t v = 0;
        for (int b = 0; b < 4; ++b) {
            int i = 4 * w + b;
            if (i < 42) v |= uint32_t(pos[i]) << (8 * b);
        }
        s->top->position[w] = v;
    }
    s->top->load = 1;
    s->tick();
    s->top->load = 0;
    for (int g = 1; g < kGuard; ++g) {
        s->top->eval();
        if (!s->top->busy) return g;
        s->tick();
    }
    return -1;
}

// The move on the input for two clocks, then the command for one clock edge: 1 MAKE, 2 NULL,
// 3 UNMAKE (0: none, the move's words only). Writes the words the mirror prepared for `move`.
void estuary_mirror_command(void* h, int kind, uint16_t move, uint32_t* make_word,
                            uint32_t* unmake_word) {
    Sim* s = static_cast<Sim*>(h);
    s->top->move = move;
    s->tick();
    s->tick();
    s->top->cmd_make = kind == 1;
    s->top->cmd_null = kind == 2;
    s->top->cmd_unmake = kind == 3;
    s->top->eval();
    *make_word = s->top->make_word;
    *unmake_word = s->top->unmake_word;
    if (kind) s->tick();
    s->top->cmd_make = 0;
    s->top->cmd_null = 0;
    s->top->cmd_unmake = 0;
    s->top->eval();
}

void estuary_mirror_tick(void* h, uint32_t n) {
    Sim* s = static_cast<Sim*>(h);
    for (uint32_t i = 0; i < n; ++i) s->tick();
}

void estuary_mirror_state(void* h, EstuaryMirrorState* out) {
    Sim* s = static_cast<Sim*>(h);
    s->top->eval();
    out->hash = s->top->hash;
    out->undo_word = s->top->undo_word;
    out->halfmove = s->top->halfmove;
    out->black = s->top->black;
    out->rights = s->top->rights;
    out->ep_file = s->top->ep_file;
    out->ply = s->top->ply;
    out->busy = s->top->busy;
}

uint64_t estuary_mirror_cycles(void* h) { return static_cast<Sim*>(h)->cycles; }
}
