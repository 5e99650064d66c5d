// The SDRAM chip beside a verilated unit with sd_* pins (hw/chip/sdram_tt.v): an SDR SDRAM
// of 4 banks x 8,192 rows x 512 columns x 16 bits (the ULX3S's 32 MB), clocked with the
// unit. It keeps the data, answers READs after the CAS latency, and checks the datasheet's
// rules on every command: the power-up sequence (precharge all, two refreshes, the mode
// register: a burst of 4, CL) before any access; ACT only to a precharged bank, tRP after
// its precharge, tRC after its last ACT, tRFC after a refresh; READ and WRITE only to the
// open row, tRCD after its ACT; auto-precharge closing the row (tWR after a write's last
// word); REFRESH only with every bank precharged; and a refresh at least every `max_gap`
// clocks. A broken rule is counted and the first one described (`violations`, `first`).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

struct SdramTimings {
    int t_rcd = 2, cl = 3, t_rp = 2, t_wr = 2, t_rfc = 7, t_rc = 7;
    uint64_t max_gap = 780 + 16;   // REFI, and the longest operation a due refresh waits for
};

class Sdram {
public:
    explicit Sdram(SdramTimings t = {}) : t_(t), mem_(size_t(1) << 25, 0) {}

    uint64_t violations = 0;
    std::string first;

    // Before the edge that ends clock `c_`: the data the chip drives in this clock, then
    // the command on the pins, sampled at the edge.
    template <class V>
    void edge(V* v) {
        v->sd_dq_in = 0;
        // Read bursts: the word due in this clock.
        for (auto& r : reads_) {
            if (r.left > 0 && c_ >= r.start) {
                v->sd_dq_in = mem_[r.addr + (4 - r.left)];
                --r.left;
                break;
            }
        }
        // A write burst's next word, sampled at this edge.
        if (wleft_ > 0) {
            if (!v->sd_dq_oe) fail("no data on the bus in a write burst");
            mem_[waddr_ + (4 - wleft_)] = uint16_t(v->sd_dq_out);
            --wleft_;
        }
        unsigned cmd = (unsigned(v->sd_cs_n) << 3) | (unsigned(v->sd_ras_n) << 2) |
                       (unsigned(v->sd_cas_n) << 1) | unsigned(v->sd_we_n);
        // CKE low (before the controller's reset is out) ignores the command pins; after
        // the power-up sequence has begun it must stay high.
        if (!v->sd_cke) {
            if (init_ > 0) fail("CKE low after the power-up sequence began");
        } else if (cmd < 8) {
            command(cmd & 7, v->sd_ba & 3, v->sd_a & 0x1fff, v);
        }
        ++c_;
    }

private:
    struct Bank {
        bool open = false;
        uint32_t row = 0;
        uint64_t act = 0;          // the clock of its last ACT
        uint64_t free = 0;         // the first clock an ACT may come (precharged, tRP)
        bool ever = false;
    };
    struct Read {
        uint64_t start;
        uint32_t addr;
        int left;
    };
    SdramTimings t_;
    std::vector<uint16_t> mem_;
    Bank banks_[4];
    std::vector<Read> reads_;
    uint64_t c_ = 0;
    uint64_t ref_free_ = 0, last_ref_ = 0;
    int init_ = 0;                 // 0 power-up, 1 precharged, 2-3 refreshes, 4 mode set
    bool ref_seen_ = false;
    int wleft_ = 0;
    uint32_t waddr_ = 0;

    void fail(const char* what) {
        if (violations++ == 0) {
            char b[160];
            std::snprintf(b, sizeof b, "clock %llu: %s", (unsigned long long)c_, what);
            first = b;
        }
    }

    uint32_t address(unsigned ba, uint32_t row, unsigned col) const {
        return ((row * 4 + ba) << 9) | (col & 0x1ff);
    }

    template <class V>
    void command(unsigned cmd, unsigned ba, unsigned a, V* v) {
        (void)v;
        reads_.erase(std::remove_if(reads_.begin(), reads_.end(),
                                    [](const Read& r) { return r.left == 0; }),
                     reads_.end());
        switch (cmd) {
            case 0: {  // MRS
                if (init_ != 3) fail("mode register set out of the power-up order");
                if ((a & 7) != 2) fail("burst length not 4");
                if (((a >> 4) & 7) != unsigned(t_.cl)) fail("CAS latency not the harness's");
                if (a & 8) fail("interleaved bursts");
                init_ = 4;
                break;
            }
            case 1: {  // REFRESH
                for (auto& b : banks_)
                    if (b.open || c_ < b.free) fail("refresh with a bank not precharged");
                if (c_ < ref_free_) fail("refresh within tRFC of a refresh");
                if (init_ == 1 || init_ == 2) ++init_;
                else if (init_ < 4) fail("refresh before the precharge of the power-up");
                else if (ref_seen_ && c_ - last_ref_ > t_.max_gap) fail("refreshes too far apart");
                if (init_ == 4) ref_seen_ = true;
                last_ref_ = c_;
                ref_free_ = c_ + t_.t_rfc;
                break;
            }
            case 2: {  // PRECHARGE (all, A10, at power-up only)
                if (!(a & 0x400)) fail("precharge of one bank (the controller auto-precharges)");
                if (init_ == 0) init_ = 1;
                for (auto& b : banks_) {
                    b.open = false;
                    if (b.free < c_ + t_.t_rp) b.free = c_ + t_.t_rp;
                }
                break;
            }
            case 3: {  // ACT
                Bank& b = banks_[ba];
                if (init_ != 4) fail("ACT before the power-up sequence");
                if (b.open) fail("ACT to an open bank");
                if (c_ < b.free) fail("ACT before the bank's precharge (tRP, tWR) is done");
                if (b.ever && c_ < b.act + t_.t_rc) fail("ACT within tRC of the last");
                if (c_ < ref_free_) fail("ACT within tRFC of a refresh");
                b.open = true;
                b.row = a;
                b.act = c_;
                b.ever = true;
                break;
            }
            case 5:    // READ
            case 4: {  // WRITE
                Bank& b = banks_[ba];
                if (!b.open) fail("READ or WRITE to a closed bank");
                if (c_ < b.act + t_.t_rcd) fail("READ or WRITE within tRCD of the ACT");
                if (!(a & 0x400)) fail("READ or WRITE without auto-precharge");
                if (a & 3) fail("a burst not aligned to 4 words");
                uint32_t addr = address(ba, b.row, a & 0x1ff);
                b.open = false;
                if (cmd == 5) {
                    reads_.push_back(Read{c_ + uint64_t(t_.cl), addr, 4});
                    b.free = c_ + 4 + t_.t_rp;
                } else {
                    if (wleft_ > 0) fail("a write burst over another");
                    // The first word is sampled with the command.
                    if (!v->sd_dq_oe) fail("no data with WRITE");
                    mem_[addr] = uint16_t(v->sd_dq_out);
                    wleft_ = 3;
                    waddr_ = addr;
                    b.free = c_ + 3 + t_.t_wr + t_.t_rp;
                }
                break;
            }
            case 7:  // NOP
                break;
            default:
                fail("a command the controller does not give");
        }
    }
};
