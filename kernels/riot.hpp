// The 6532 RIOT as ALE emulates it: 128 bytes of RAM, the interval timer, and
// ports A (joysticks) and B (console switches).
//
// The timer is kept as ALE keeps it: the value written, the prescaler shift and
// the CPU cycle of the write; a read computes the count from the current cycle.
// After the count passes zero the timer keeps decrementing once per cycle, and
// a read of INTIM after that freezes the moment the "interrupt" was seen. The
// arithmetic (signed/unsigned mixes included) follows ALE, since games read the
// timer to seed their random numbers.
#pragma once

#include <cstdint>

#include "kernels/hd.hpp"

namespace cule {

struct Riot {
  uint8_t ram[128];
  uint32_t timer;           // value last written to a timer register
  uint32_t interval_shift;  // log2 of the prescaler: 0, 3, 6 or 10
  int32_t cycles_when_timer_set;
  int32_t cycles_when_interrupt_reset;
  uint8_t timer_read_after_interrupt;
  uint8_t DDRA;
  uint8_t DDRB;
};

//! A reset starts the timer at one of this many values, picked by a draw.
constexpr uint32_t kRiotResetTimers = 75;
//! Which of them the system RNG's draw `random` picks.
CULE_HD inline uint32_t riot_reset_timer_index(uint32_t random) {
  return random % kRiotResetTimers;
}

//! Registers as ALE's reset leaves them; `random` is the system RNG's draw
//! that picks the starting timer value. RAM is left alone.
CULE_HD inline void riot_reset(Riot& riot, uint32_t random) {
  riot.timer = 25 + riot_reset_timer_index(random);
  riot.interval_shift = 6;
  riot.cycles_when_timer_set = 0;
  riot.cycles_when_interrupt_reset = 0;
  riot.timer_read_after_interrupt = 0;
  riot.DDRA = 0;
  riot.DDRB = 0;
}

//! The system cycle counter is about to go back to zero from `cycles`.
CULE_HD inline void riot_rebase_cycles(Riot& riot, uint32_t cycles) {
  riot.cycles_when_timer_set -= int32_t(cycles);
  riot.cycles_when_interrupt_reset -= int32_t(cycles);
}

//! Whether `address` (A7 and A9 set) reads the timer (INTIM).
CULE_HD constexpr bool riot_reads_timer(uint16_t address) { return (address & 0x05) == 0x04; }

//! The timer's count for an INTIM read at `cycles` while it has not passed
//! zero (negative after): such a read changes nothing.
CULE_HD inline int riot_timer_count(const Riot& riot, uint32_t cycles) {
  const uint32_t delta = (cycles - 1) - uint32_t(riot.cycles_when_timer_set);
  return int(riot.timer) - int(delta >> riot.interval_shift) - 1;
}

//! A read of the I/O and timer registers (A9 set, A7 set); `swcha` and `swchb`
//! are the port inputs.
CULE_HD inline uint8_t riot_read_io(Riot& riot, uint16_t address, uint32_t cycles, uint8_t swcha,
                                    uint8_t swchb) {
  switch (address & 0x07) {
    case 0x00: return swcha;
    case 0x01: return riot.DDRA;
    case 0x02: return swchb;
    case 0x03: return riot.DDRB;
    case 0x04:
    case 0x06: {  // INTIM
      const uint32_t delta = (cycles - 1) - uint32_t(riot.cycles_when_timer_set);
      int timer = riot_timer_count(riot, cycles);
      if (timer >= 0) return static_cast<uint8_t>(timer);
      timer = int(riot.timer << riot.interval_shift) - int(delta) - 1;
      if (timer <= -2 && !riot.timer_read_after_interrupt) {
        riot.timer_read_after_interrupt = 1;
        riot.cycles_when_interrupt_reset = int32_t(cycles);
      }
      if (riot.timer_read_after_interrupt) {
        const int offset =
            int(uint32_t(riot.cycles_when_interrupt_reset) -
                (uint32_t(riot.cycles_when_timer_set) + (riot.timer << riot.interval_shift)));
        timer = int(riot.timer) - int(delta >> riot.interval_shift) - offset;
      }
      return static_cast<uint8_t>(timer);
    }
    default: {  // TIMINT (0x05, 0x07)
      const uint32_t delta = (cycles - 1) - uint32_t(riot.cycles_when_timer_set);
      const int timer = int(riot.timer) - int(delta >> riot.interval_shift) - 1;
      return (timer >= 0 || riot.timer_read_after_interrupt) ? 0x00 : 0x80;
    }
  }
}

//! A write to the I/O and timer registers. Port outputs are not modelled
//! (ALE's joysticks ignore them).
CULE_HD inline void riot_write_io(Riot& riot, uint16_t address, uint8_t value, uint32_t cycles) {
  if ((address & 0x07) == 0x01) {
    riot.DDRA = value;
  } else if ((address & 0x14) == 0x14) {     // TIM1T, TIM8T, TIM64T, T1024T
    const uint32_t select = address & 0x03;  // prescaler 1, 8, 64, 1024
    riot.timer = value;
    riot.interval_shift = select == 3 ? 10 : select * 3;
    riot.cycles_when_timer_set = int32_t(cycles);
    riot.timer_read_after_interrupt = 0;
  }
  // Port A/B data, DDRB and the edge-detect control change nothing in ALE.
}

}  // namespace cule
