// The far end of a UART, as the harnesses of the units with a serial port play it: the levels
// to put on the unit's receive line (a byte at a time, `bit` clocks a bit), and a receiver
// that samples the unit's transmit line once a clock and keeps the bytes it completes.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

struct UartPeer {
    uint32_t div = 4;            // clocks a bit on the transmit line
    std::deque<uint8_t> line;    // levels for the receive line, one a clock
    int rx_state = 0;            // 0 idle, 1 in a byte
    uint32_t rx_cnt = 0;
    int rx_bit = 0;
    uint32_t rx_shift = 0;
    std::vector<uint8_t> received;

    // Start bit, eight data bits (least significant first), stop bit.
    void queue_byte(uint8_t b, uint32_t bit) {
        for (int i = 0; i < 10; ++i) {
            int level = i == 0 ? 0 : i == 9 ? 1 : (b >> (i - 1)) & 1;
            for (uint32_t c = 0; c < bit; ++c) line.push_back(uint8_t(level));
        }
    }

    void queue_idle(uint32_t clocks) {
        for (uint32_t c = 0; c < clocks; ++c) line.push_back(1);
    }

    // The receive line's level for the next clock.
    uint8_t next_level() {
        if (line.empty()) return 1;
        uint8_t level = line.front();
        line.pop_front();
        return level;
    }

    // One clock's sample of the transmit line: a byte is taken at the middle of each bit.
    void sample(int level) {
        if (rx_state == 0) {
            if (!level) {
                rx_state = 1;
                rx_cnt = div / 2;
                rx_bit = -1;
                rx_shift = 0;
            }
            return;
        }
        if (--rx_cnt != 0) return;
        rx_cnt = div;
        if (rx_bit < 0) {
            if (level) rx_state = 0;  // not a start bit after all
            else rx_bit = 0;
        } else if (rx_bit < 8) {
            rx_shift |= uint32_t(level) << rx_bit;
            ++rx_bit;
        } else {
            if (level) received.push_back(uint8_t(rx_shift));
            rx_state = 0;
        }
    }

    // Moves up to `cap` received bytes to `out`; returns how many.
    size_t take(uint8_t* out, size_t cap) {
        size_t n = received.size() < cap ? received.size() : cap;
        for (size_t i = 0; i < n; ++i) out[i] = received[i];
        received.erase(received.begin(), received.begin() + n);
        return n;
    }
};
