// What every unit's harness shares: a verilated model `V` (with a `clk` input) and its
// context, clocked one edge at a time with the edges counted, and a wait for a condition.
#pragma once
#include <cstdint>
#include "verilated.h"

template <class V>
struct Clocked {
    VerilatedContext ctx;
    V* top;
    uint64_t cycles = 0;
    Clocked() { top = new V(&ctx); }
    virtual ~Clocked() { top->final(); delete top; }
    Clocked(const Clocked&) = delete;
    Clocked& operator=(const Clocked&) = delete;
    // What the harness's models of the chips around the unit do before each edge (the
    // SDRAM's: csrc/sdram.h); the unit's outputs are those of the clock ending.
    virtual void before_edge() {}
    // One rising edge.
    void tick() {
        top->clk = 0;
        top->eval();
        before_edge();
        top->clk = 1;
        top->eval();
        ++cycles;
    }
    // Clocks until `ok(top)` holds (checked before each edge), at most `guard` edges; false
    // if it never did.
    template <class F>
    bool wait_until(F ok, int guard) {
        for (int g = 0; g < guard; ++g) {
            top->eval();
            if (ok(top)) return true;
            tick();
        }
        return false;
    }
};
