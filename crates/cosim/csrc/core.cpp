// C interface to a verilated search core (hw/chip/chip_core.v), one clock at a time: the
// units are loaded through the host port while the sequencer is idle, then a GO runs to its
// done pulse, and every command the sequencer gives a unit is recorded with its clock, as
// are the reports. The core is built with both tables (TT_EXT 2); the SDRAM beside it is
// csrc/sdram.h, which checks every command the controller gives it.
#include <cstdint>
#include <cstring>
#include "Vcore.h"
#include "clocked.h"
#include "sdram.h"

namespace {
constexpr int kGuard = 100000;

struct Sim : Clocked<Vcore> {
    Sdram sdram;
    bool wait(bool (*ok)(Vcore*)) { return wait_until(ok, kGuard); }
    void before_edge() override { sdram.edge(top); }
};
}  // namespace

extern "C" {

struct EstuaryCoreEvent {
    uint64_t clock;
    uint32_t kind;   // 1 MAKE, 2 NULL, 3 UNMAKE, 4 GEN, 5 EVAL, 6 a score out; 9 the units'
                     // commands differ
    uint32_t data;
};

struct EstuaryCoreReport {
    uint64_t nodes;
    uint64_t clocks;
    int32_t score;
    uint32_t depth;
    uint32_t pv_len;
    uint16_t pv[64];
};

struct EstuaryCoreLimits {
    uint64_t nodes;
    uint64_t clocks;
    uint32_t depth;
    uint32_t null_move;
    uint32_t lmr;
    uint32_t lmp;       // the late-move pruning build
    uint32_t tt_clocks;
    uint32_t tt_sdram;  // the table in the SDRAM (tt_clocks then unused)
    uint64_t max_cycles;
    uint64_t stop_at;   // the stop line ("decide now") raised from this clock on; 0 never
};

struct EstuaryCoreResult {
    uint64_t nodes;
    uint64_t qnodes;
    uint64_t clocks;
    uint64_t events;
    uint64_t reports;
    uint32_t best;
    uint32_t stopped;
    uint32_t overflow;
    uint32_t finished;
};

void* estuary_core_new() {
    Sim* s = new Sim();
    Vcore* t = s->top;
    t->h_gcmd_valid = 0;
    t->h_ecmd_valid = 0;
    t->h_mload = 0;
    t->go = 0;
    t->stop = 0;
    t->clear = 0;
    t->hist_we = 0;
    t->cfg_tt_ext = 0;
    t->rst = 1;
    s->tick();
    s->tick();
    t->rst = 0;
    s->tick();
    // The SDRAM's power-up sequence (200 us at 100 MHz).
    s->wait([](Vcore* v) { return v->sd_ready != 0; });
    // Empty the table and the killers.
    t->clear = 1;
    s->tick();
    t->clear = 0;
    s->wait([](Vcore* v) { return !v->busy; });
    s->cycles = 0;
    return s;
}

void estuary_core_free(void* h) { delete static_cast<Sim*>(h); }

// One command to a unit (0 the generator, 1 the evaluation unit) through the host port, when
// it is ready. Returns 0 if it never was.
int estuary_core_unit(void* h, int unit, uint32_t cmd, uint32_t addr, uint32_t data) {
    Sim* s = static_cast<Sim*>(h);
    Vcore* t = s->top;
    bool ok = unit == 0 ? s->wait([](Vcore* v) { return v->g_ready != 0; })
                        : s->wait([](Vcore* v) { return v->e_ready != 0; });
    if (!ok) return 0;
    if (unit == 0) {
        t->h_gcmd_valid = 1; t->h_gcmd = cmd; t->h_gcmd_addr = addr; t->h_gcmd_data = data;
    } else {
        t->h_ecmd_valid = 1; t->h_ecmd = cmd; t->h_ecmd_addr = addr; t->h_ecmd_data = data;
    }
    s->tick();
    t->h_gcmd_valid = 0;
    t->h_ecmd_valid = 0;
    return 1;
}

// The mirror's LOAD of a 42-byte position, then the game's hashes before it (oldest first),
// and clocks until every unit is idle. Returns 0 if a unit never was.
int estuary_core_position(void* h, const uint8_t* pos, const uint64_t* hist, uint32_t n) {
    Sim* s = static_cast<Sim*>(h);
    Vcore* t = s->top;
    for (int w = 0; w < 11; ++w) {
        uint32_t v = 0;
        for (int b = 0; b < 4; ++b) {
            int i = 4 * w + b;
            if (i < 42) v |= uint32_t(pos[i]) << (8 * b);
        }
        t->h_position[w] = v;
    }
    t->h_mload = 1;
    s->tick();
    t->h_mload = 0;
    for (uint32_t i = 0; i < n && i < 256; ++i) {
        t->hist_we = 1;
        t->hist_addr = i;
        t->hist_data = hist[i];
        s->tick();
    }
    t->hist_we = 0;
    t->game_len = n;
    return s->wait([](Vcore* v) { return !v->m_busy && v->g_ready && v->e_ready; }) ? 1 : 0;
}

// CLEAR with the block-RAM table (`sdram` 0) or the SDRAM's, to the sequencer's idle.
int estuary_core_clear(void* h, uint32_t sdram) {
    Sim* s = static_cast<Sim*>(h);
    Vcore* t = s->top;
    if (!s->wait([](Vcore* v) { return !v->busy; })) return 0;
    t->cfg_tt_ext = sdram != 0;
    t->clear = 1;
    s->tick();
    t->clear = 0;
    return s->wait([](Vcore* v) { return !v->busy; }) ? 1 : 0;
}

uint64_t estuary_core_hash(void* h) {
    Sim* s = static_cast<Sim*>(h);
    s->top->eval();
    return s->top->m_hash;
}

// GO: runs to the done pulse (or `max_cycles`), recording up to `ecap` events and `rcap`
// reports. Returns 1 when the search finished.
int estuary_core_go(void* h, const EstuaryCoreLimits* lim, EstuaryCoreEvent* ev, uint64_t ecap,
                    EstuaryCoreReport* rep, uint64_t rcap, EstuaryCoreResult* out) {
    Sim* s = static_cast<Sim*>(h);
    Vcore* t = s->top;
    t->lim_depth = lim->depth;
    t->lim_nodes = lim->nodes;
    t->lim_clocks = lim->clocks;
    t->cfg_null = lim->null_move;
    t->cfg_lmr = lim->lmr;
    t->cfg_lmp = lim->lmp;
    t->cfg_tt_clocks = lim->tt_clocks;
    t->cfg_tt_ext = lim->tt_sdram != 0;
    t->go = 1;
    s->tick();
    t->go = 0;
    uint64_t ne = 0, nr = 0;
    *out = EstuaryCoreResult{};
    for (uint64_t c = 0; c < lim->max_cycles; ++c) {
        t->stop = lim->stop_at != 0 && t->now >= lim->stop_at;
        t->eval();
        uint64_t now = t->now;
        if (t->obs_g_valid) {
            uint32_t kind = 0, data = 0;
            switch (t->obs_g_cmd) {
                case 2: kind = 1; data = t->obs_g_data & 0xffff; break;
                case 3: kind = 3; break;
                case 4: kind = 2; break;
                case 5: kind = 4; data = t->obs_g_data & 1; break;
                default: kind = 9; data = t->obs_g_cmd; break;
            }
            // MAKE, NULL and UNMAKE go to both units in the same clock.
            if (kind <= 3 && !(t->obs_e_valid && t->obs_e_cmd == t->obs_g_cmd)) kind = 9;
            if (ne < ecap) ev[ne] = EstuaryCoreEvent{now, kind, data};
            ++ne;
        }
        if (t->obs_e_valid && t->obs_e_cmd == 5) {
            if (ne < ecap) ev[ne] = EstuaryCoreEvent{now, 5, 0};
            ++ne;
        }
        if (t->obs_e_result) {
            if (ne < ecap) ev[ne] = EstuaryCoreEvent{now, 6, 0};
            ++ne;
        }
        if (t->report) {
            if (nr < rcap) {
                EstuaryCoreReport& r = rep[nr];
                r.depth = t->rep_depth;
                r.score = static_cast<int16_t>(t->rep_score);
                r.nodes = t->rep_nodes;
                r.clocks = t->rep_clocks;
                r.pv_len = t->rep_pvlen;
                for (uint32_t i = 0; i < r.pv_len && i < 64; ++i) {
                    t->pv_addr = i;
                    t->eval();
                    r.pv[i] = t->pv_move;
                }
            }
            ++nr;
        }
        if (t->done) {
            out->best = t->best_move;
            out->stopped = t->stopped;
            out->finished = 1;
            break;
        }
        s->tick();
    }
    t->stop = 0;
    t->eval();
    out->nodes = t->nodes;
    out->qnodes = t->qnodes;
    out->clocks = t->now;
    out->overflow = t->overflow;
    out->events = ne;
    out->reports = nr;
    return out->finished ? 1 : 0;
}
}

extern "C" {
// The SDRAM's broken rules so far, the first described in `buf` (NUL-terminated).
uint64_t estuary_core_sdram_violations(void* h, char* buf, uint32_t len) {
    Sim* s = static_cast<Sim*>(h);
    if (len > 0) {
        std::strncpy(buf, s->sdram.first.c_str(), len - 1);
        buf[len - 1] = 0;
    }
    return s->sdram.violations;
}
}
