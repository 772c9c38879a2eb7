// The TIA as ALE emulates it (Stella 2.x): video, collisions, input ports.
//
// Time is counted in colour clocks, 3 per CPU cycle, from the system cycle
// counter that the console rebases to zero at every frame start. The TIA draws
// lazily: a register write or a read first draws every colour clock up to
// "now" (plus the register's write delay) with the old register values, then
// applies the change. Only the visible window (ALE's YStart/Height) is drawn,
// and collisions are latched only where pixels are drawn outside VBLANK, as
// in ALE.
//
// Objects are patterns rotated by their position: a pixel at horizontal
// position hpos shows an object when the object's pattern has a bit at
// (hpos - position) mod 160. The patterns, the motion applied by HMOVE, the
// write delays and the position quirks are ALE's.
#pragma once

#include <cstdint>

#include "kernels/hd.hpp"

namespace cule {

constexpr int kClocksPerScanline = 228;
constexpr int kHBlankClocks = 68;
constexpr int kScreenWidth = 160;

//! What the TIA takes from the game's properties and TV standard.
struct TiaConfig {
  int32_t y_start;        //!< first scanline of the visible window
  int32_t height;         //!< scanlines drawn in the window
  int32_t max_scanlines;  //!< a frame ends here without VSYNC: 290 NTSC, 342 PAL
  uint8_t hmove_blanks;   //!< an HMOVE in HBLANK blanks the next 8 pixels
  uint8_t color_loss;     //!< PAL: colours get bit 0 after an odd-length frame
};

//! Input levels the TIA reads: fire buttons and paddle resistances.
struct TiaInputs {
  uint8_t fire;           //!< bit 0: left (INPT4), bit 1: right (INPT5); 1 = pressed
  int32_t resistance[4];  //!< INPT0..INPT3, Stella's units
};

constexpr int32_t kMinimumResistance = 0;
constexpr int32_t kMaximumResistance = 0x7FFFFFFF;  // nothing connected

// Object bits of the priority encoder and collision logic.
enum : uint8_t {
  kP0Bit = 0x01,
  kM0Bit = 0x02,
  kP1Bit = 0x04,
  kM1Bit = 0x08,
  kBLBit = 0x10,
  kPFBit = 0x20,
  kScoreBit = 0x40,
  kPriorityBit = 0x80,
};

// How missile 0 is drawn: ALE models the "Cosmic Ark" starfield by moving M0
// every scanline, stretched on one line in four and hidden on another.
enum : uint8_t { kMissileNormal = 0, kMissileStretched = 1, kMissileHidden = 2 };

struct Tia {
  // Frame timing, in colour clocks
  int32_t clock_when_frame_started;
  int32_t clock_start_display;
  int32_t clock_stop_display;
  int32_t clock_at_last_update;
  int32_t clocks_to_end_of_scanline;
  int32_t vsync_finish_clock;
  int32_t last_hmove_clock;
  // Accesses that change nothing drawn (WSYNC, audio, motion registers,
  // input reads) leave the drawing to the next access that does, or to the
  // frame's end: this is the clock ALE would have drawn up to by then.
  int32_t deferred_clock;
  int32_t dump_disabled_cycle;  // CPU cycle at which the paddle capacitors were released
  int32_t scanline_count_for_last_frame;
  int32_t current_scanline;
  uint32_t frame_pixel;  // next pixel of the frame buffer being drawn
  uint8_t current_buffer;
  uint8_t partial_frame;
  uint8_t frame_greyed;
  uint8_t dump_enabled;
  uint8_t hmove_blank_enabled;
  uint8_t cosmic_ark_enabled;
  uint8_t cosmic_ark_counter;
  // Not ALE's: for each frame buffer, an upper bound on the pixels that
  // frames run without drawing may have left other than ALE's (0: the
  // buffer holds what ALE's would). Only pixels [0, n) can be affected.
  uint32_t undrawn_pixels[2];

  // Registers
  uint8_t VSYNC, VBLANK, NUSIZ0, NUSIZ1, CTRLPF, REFP0, REFP1;
  uint8_t color[4];  // background, playfield, player 0, player 1: as drawn
  uint8_t playfield_priority_and_score;
  uint32_t PF;  // 20 playfield bits: PF0 in 3-0, PF1 in 11-4, PF2 in 19-12
  uint8_t GRP0, GRP1, DGRP0, DGRP1;
  uint8_t ENAM0, ENAM1, ENABL, DENABL;
  uint8_t HMP0, HMP1, HMM0, HMM1, HMBL;  // motion nibbles, 0-15
  uint8_t VDELP0, VDELP1, VDELBL, RESMP0, RESMP1;
  uint16_t collision;  // the 15 collision latches
  int16_t POSP0, POSP1, POSM0, POSM1, POSBL;
  uint8_t current_grp0, current_grp1;  // player graphics as drawn (delayed, reflected)
  uint8_t enabled_objects;

  // How the object patterns were last set up
  uint8_t pf_reflect;  // reflection in effect (CTRLPF bit 0 latched mid-line)
  uint8_t p0_first_copy_hidden, p1_first_copy_hidden;
  uint8_t m0_pattern;  // kMissileNormal, kMissileStretched or kMissileHidden
};

//! The two frame buffers a TIA draws into, alternately (ALE swaps them every
//! frame; rows a frame does not reach keep what was drawn two frames before).
struct FrameBuffers {
  uint8_t* pixels;  // 2 buffers of `size` bytes each
  uint32_t size;    // 160 x rows
  // 0: frames that no one will look at; collisions are still latched but
  // no pixel is written, and Tia::undrawn_pixels records what is stale.
  uint8_t draw = 1;
  // 1: a frame that ends partial will be run again from a saved state, so
  // no pixel is read back (ALE's grey-out of such a frame is left to that
  // run, and the buffer counts as stale).
  uint8_t may_redo = 0;
  CULE_HD uint8_t* current(const Tia& tia) const { return pixels + tia.current_buffer * size; }
};

namespace tia_detail {

// x mod 160 for x in (-160, 320): differences of two positions.
CULE_HD inline int wrap160(int x) {
  if (x < 0) return x + kScreenWidth;
  return x >= kScreenWidth ? x - kScreenWidth : x;
}

CULE_HD inline uint8_t reverse_bits(uint8_t b) {
  b = static_cast<uint8_t>((b & 0xF0) >> 4 | (b & 0x0F) << 4);
  b = static_cast<uint8_t>((b & 0xCC) >> 2 | (b & 0x33) << 2);
  return static_cast<uint8_t>((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

// Copies after the first, by NUSIZ number: close (16), medium (32), wide (64).
CULE_HD inline bool has_copy_at(uint8_t number, int offset) {
  switch (offset) {
    case 16: return number == 1 || number == 3;
    case 32: return number == 2 || number == 3 || number == 6;
    default: return number == 4 || number == 6;  // 64
  }
}

// Which of the 20 playfield bits shows at hpos (4 pixels per bit; the right
// half repeats, or mirrors when reflected).
CULE_HD inline int playfield_bit(int hpos, bool reflect) {
  int q = hpos >> 2;  // 0-39
  if (q >= 20) q = reflect ? 39 - q : q - 20;
  return (q >= 4 && q < 12) ? 15 - q : q;  // PF1 is drawn from its high bit
}

// ALE's resolution of overlapping objects into one of the four colour
// registers (0 background, 1 playfield, 2 player 0, 3 player 1).
CULE_HD constexpr uint8_t priority_colour(uint8_t enabled, bool right_half) {
  if (enabled & kPriorityBit) {
    uint8_t colour = 0;
    if (enabled & (kP1Bit | kM1Bit)) colour = 3;
    if (enabled & (kP0Bit | kM0Bit)) colour = 2;
    if (enabled & (kBLBit | kPFBit)) colour = 1;  // the playfield wins; score mode is ignored
    return colour;
  }
  uint8_t colour = 0;
  if (enabled & kBLBit) colour = 1;
  if (enabled & kPFBit) colour = (enabled & kScoreBit) ? (right_half ? 3 : 2) : 1;
  if (enabled & (kP1Bit | kM1Bit)) colour = colour != 2 ? 3 : 2;
  if (enabled & (kP0Bit | kM0Bit)) colour = 2;
  return colour;
}

// priority_colour as a table: entry (right half) * 256 + enabled, where
// enabled is the objects (bits 0-5) with CTRLPF's priority and score bits.
struct PriorityTable {
  uint8_t colour[512];
};

CULE_HD constexpr PriorityTable make_priority_table() {
  PriorityTable table{};
  for (int i = 0; i < 512; ++i) table.colour[i] = priority_colour(uint8_t(i & 0xFF), i >= 256);
  return table;
}

// Device code reads its own copy, in device memory.
#if defined(__CUDACC__)
static __device__ constexpr PriorityTable kPriorityTableDevice = make_priority_table();
#endif
inline constexpr PriorityTable kPriorityTableHost = make_priority_table();

CULE_HD inline const uint8_t* priority_table() {
#if defined(__CUDA_ARCH__)
  return kPriorityTableDevice.colour;
#else
  return kPriorityTableHost.colour;
#endif
}

// The collision latches set by a set of overlapping objects (CXM0P.. CXPPMM bit order).
CULE_HD inline uint16_t collisions_of(uint8_t e) {
  const bool p0 = e & kP0Bit, m0 = e & kM0Bit, p1 = e & kP1Bit, m1 = e & kM1Bit, bl = e & kBLBit,
             pf = e & kPFBit;
  return static_cast<uint16_t>(
      (m0 && p1) << 0 | (m0 && p0) << 1 | (m1 && p0) << 2 | (m1 && p1) << 3 | (p0 && pf) << 4 |
      (p0 && bl) << 5 | (p1 && pf) << 6 | (p1 && bl) << 7 | (m0 && pf) << 8 | (m0 && bl) << 9 |
      (m1 && pf) << 10 | (m1 && bl) << 11 | (bl && pf) << 12 | (p0 && p1) << 13 | (m0 && m1) << 14);
}

// Sets of objects, as bits of a 64-bit word indexed by the set, that hold
// fewer than two objects and so collide with nothing: {}, and each alone.
constexpr uint64_t kLoneObjectSets = 1ull << 0 | 1ull << kP0Bit | 1ull << kM0Bit | 1ull << kP1Bit |
                                     1ull << kM1Bit | 1ull << kBLBit | 1ull << kPFBit;

// The collision latches set by every set of objects marked in `seen`.
CULE_HD inline uint16_t collisions_of_sets(uint64_t seen) {
  seen &= ~kLoneObjectSets;
  uint16_t latches = 0;
  while (seen) {
#if defined(__CUDA_ARCH__)
    const int set = __ffsll(static_cast<long long>(seen)) - 1;
#else
    const int set = __builtin_ctzll(seen);
#endif
    latches |= collisions_of(uint8_t(set));
    seen &= seen - 1;
  }
  return latches;
}

// Position change applied by HMOVE written at CPU cycle x (0-75) of the line,
// for a motion nibble: the full -7..+8 in horizontal blank, less the later in
// the blank the strobe comes, none mid-line, and leftward drift when the
// strobe comes late in the line (ALE's measured table, in closed form).
CULE_HD inline int hmove_motion(int x, uint8_t nibble) {
  const int w = nibble < 8 ? nibble : nibble - 16;  // -8..7; the move is -w
  if (x <= 20 || x == 75) {
    const int limit = x == 75 ? 8 : 8 - (3 * x - 3) / 4;
    return -(w < limit ? w : limit);
  }
  if (x < 55) return 0;
  const int excess = w - (47 - (3 * x + 1) / 4);
  return excess > 0 ? -excess : 0;
}

// HMOVE blanks: an HMOVE at these CPU cycles blanks the next line start.
CULE_HD inline bool hmove_blank_cycle(int x) { return x <= 20 || x == 75; }

// When RESPx moves a player to newx: 1 inside a displayed copy, -1 in the
// 4-clock start delay of a copy, 0 elsewhere (ALE's reset-when table).
CULE_HD inline int player_reset_when(uint8_t nusiz, int oldx, int newx) {
  const int d = wrap160(newx - oldx);
  const uint8_t number = nusiz & 0x07;
  if (d < 4) return -1;
  const int first_width = number == 5 ? 16 : number == 7 ? 32 : 8;
  if (d < 4 + first_width) return 1;
  for (int copy = 16; copy <= 64; copy *= 2) {
    if (!has_copy_at(number, copy)) continue;
    if (d >= copy && d < copy + 4) return -1;
    if (d >= copy + 4 && d < copy + 12) return 1;
  }
  return 0;
}

CULE_HD inline uint8_t colour_register(const TiaConfig& config, const Tia& tia, uint8_t value) {
  uint8_t colour = value & 0xFE;
  if (config.color_loss && (tia.scanline_count_for_last_frame & 0x01)) colour |= 0x01;
  return colour;
}

CULE_HD inline void set_enabled(Tia& tia, uint8_t bit, bool on) {
  tia.enabled_objects =
      on ? uint8_t(tia.enabled_objects | bit) : uint8_t(tia.enabled_objects & ~bit);
}

CULE_HD inline void refresh_player_graphics(Tia& tia) {
  const uint8_t grp0 = tia.VDELP0 ? tia.DGRP0 : tia.GRP0;
  const uint8_t grp1 = tia.VDELP1 ? tia.DGRP1 : tia.GRP1;
  tia.current_grp0 = tia.REFP0 ? reverse_bits(grp0) : grp0;
  tia.current_grp1 = tia.REFP1 ? reverse_bits(grp1) : grp1;
  set_enabled(tia, kP0Bit, tia.current_grp0 != 0);
  set_enabled(tia, kP1Bit, tia.current_grp1 != 0);
}

CULE_HD inline void refresh_ball_enable(Tia& tia) {
  set_enabled(tia, kBLBit, tia.VDELBL ? tia.DENABL : tia.ENABL);
}

// Calls mark(i, j) for every pixel i of a span (0 <= i < count) whose offset
// from an object's position falls in [first, first + width): j is the offset
// into that stretch. `start` is the span's first offset, (hpos - position)
// mod 160; a span of up to 160 pixels may wrap past offset 159 once.
// Returns whether any pixel was marked.
template <class Mark>
CULE_HD CULE_FORCE_INLINE bool for_stretch(int start, int count, int first, int width, Mark mark) {
  const int end = first + width;
  const int lo = first > start ? first : start;
  const int hi_span = start + count < kScreenWidth ? start + count : kScreenWidth;
  const int hi = end < hi_span ? end : hi_span;
  bool marked = lo < hi;
  for (int d = lo; d < hi; ++d) mark(d - start, d - first);
  if (start + count > kScreenWidth) {
    const int wrapped_hi = end < start + count - kScreenWidth ? end : start + count - kScreenWidth;
    marked |= first < wrapped_hi;
    for (int d = first; d < wrapped_hi; ++d) mark(d + kScreenWidth - start, d - first);
  }
  return marked;
}

// Marks a player's pixels: 8 graphics bits per copy, high bit first; double
// and quad players are one copy, stretched, starting one pixel late.
// Returns whether the span meets a copy.
CULE_HD inline bool mark_player(uint8_t* bits, uint8_t bit, int start, int count, uint8_t grp,
                                uint8_t nusiz, bool first_copy_hidden) {
  const uint8_t number = nusiz & 0x07;
  if (number == 5 || number == 7) {
    if (first_copy_hidden) return false;
    const int shift = number == 5 ? 1 : 2;
    // Branch-free: graphics bits are too irregular to predict.
    return for_stretch(start, count, 1, 8 << shift,
                       [&](int i, int j) { bits[i] |= bit & -((grp >> (7 - (j >> shift))) & 1); });
  }
  auto draw = [&](int i, int j) { bits[i] |= bit & -((grp >> (7 - j)) & 1); };
  bool marked = !first_copy_hidden && for_stretch(start, count, 0, 8, draw);
  for (int offset = 16; offset <= 64; offset *= 2) {
    if (has_copy_at(number, offset)) marked |= for_stretch(start, count, offset, 8, draw);
  }
  return marked;
}

// Marks a missile's pixels: `width` pixels per copy. Returns whether the
// span meets a copy.
CULE_HD inline bool mark_missile(uint8_t* bits, uint8_t bit, int start, int count, uint8_t number,
                                 int width) {
  auto draw = [&](int i, int) { bits[i] |= bit; };
  bool marked = for_stretch(start, count, 0, width, draw);
  for (int offset = 16; offset <= 64; offset *= 2) {
    if (has_copy_at(number, offset)) marked |= for_stretch(start, count, offset, width, draw);
  }
  return marked;
}

// Calls run(i, n, on) for the runs of pixels [i, i + n) of a span that one
// playfield bit covers (4 pixels, aligned): `on` is that bit.
template <class Run>
CULE_HD CULE_FORCE_INLINE void for_playfield_runs(const Tia& tia, int hpos, int count, Run run) {
  for (int i = 0; i < count;) {
    const int x = hpos + i;
    int n = 4 - (x & 3);
    if (n > count - i) n = count - i;
    run(i, n, ((tia.PF >> playfield_bit(x, tia.pf_reflect)) & 1) != 0);
    i += n;
  }
}

CULE_HD inline void fill(uint8_t* out, int count, uint8_t value) {
  int i = 0;
#if defined(__CUDA_ARCH__)
  // Four pixels a store where aligned: each store of a warp's lanes, which
  // write different consoles' screens, is a memory transaction per lane.
  for (; i < count && (reinterpret_cast<uintptr_t>(out + i) & 3) != 0; ++i) out[i] = value;
  const uint32_t word = value * 0x01010101u;
  for (; i + 4 <= count; i += 4) *reinterpret_cast<uint32_t*>(out + i) = word;
#endif
  for (; i < count; ++i) out[i] = value;
}

// Draws `count` pixels of one scanline from hpos (when `draw`), and
// latches collisions.
CULE_HD inline void draw_span(Tia& tia, uint8_t* out, int hpos, int count, bool draw) {
  if (tia.VBLANK & 0x02) {
    if (draw) fill(out, count, 0);
    return;
  }
  const bool m0_shown = (tia.enabled_objects & kM0Bit) && tia.m0_pattern != kMissileHidden;
  if (!draw) {
    // Without pixels, only spans where two objects can meet matter.
    const int objects = (tia.PF != 0) + ((tia.enabled_objects & kBLBit) != 0) +
                        (tia.current_grp1 != 0) + ((tia.enabled_objects & kM1Bit) != 0) +
                        (tia.current_grp0 != 0) + m0_shown;
    if (objects < 2) return;
  }
  // Which objects other than the playfield cover each pixel of the span.
  uint8_t bits[kScreenWidth];
  fill(bits, count, 0);
  bool marked = false;
  const uint8_t nusiz0 = tia.NUSIZ0, nusiz1 = tia.NUSIZ1;
  if (tia.enabled_objects & kBLBit) {
    marked |= for_stretch(wrap160(hpos - tia.POSBL), count, 0, 1 << ((tia.CTRLPF & 0x30) >> 4),
                          [&](int i, int) { bits[i] |= kBLBit; });
  }
  if (tia.current_grp1) {
    marked |= mark_player(bits, kP1Bit, wrap160(hpos - tia.POSP1), count, tia.current_grp1, nusiz1,
                          tia.p1_first_copy_hidden);
  }
  if (tia.enabled_objects & kM1Bit) {
    marked |= mark_missile(bits, kM1Bit, wrap160(hpos - tia.POSM1), count, nusiz1 & 0x07,
                           1 << ((nusiz1 & 0x30) >> 4));
  }
  if (tia.current_grp0) {
    marked |= mark_player(bits, kP0Bit, wrap160(hpos - tia.POSP0), count, tia.current_grp0, nusiz0,
                          tia.p0_first_copy_hidden);
  }
  if (m0_shown) {
    const int size =
        tia.m0_pattern == kMissileStretched ? ((nusiz0 & 0x30) >> 4) | 1 : (nusiz0 & 0x30) >> 4;
    marked |=
        mark_missile(bits, kM0Bit, wrap160(hpos - tia.POSM0), count, nusiz0 & 0x07, 1 << size);
  }
  // Colour registers by set of objects, for this CTRLPF; right half at +256.
  const uint8_t* const colour = priority_table() + tia.playfield_priority_and_score;
  if (!marked) {
    // Playfield and background only: nothing collides.
    if (!draw) return;
    if (tia.PF == 0) {
      fill(out, count, tia.color[0]);
      return;
    }
    const uint8_t background = tia.color[0];
    for_playfield_runs(tia, hpos, count, [&](int i, int n, bool on) {
      fill(out + i, n, on ? tia.color[colour[(hpos + i >= 80 ? 256 : 0) + kPFBit]] : background);
    });
    return;
  }
  if (tia.PF != 0) {
    for_playfield_runs(tia, hpos, count, [&](int i, int n, bool on) {
      if (on) {
        for (int k = i; k < i + n; ++k) bits[k] |= kPFBit;
      }
    });
  }
  // Every set of objects met, as bit `set` of `seen`, for the collisions.
  uint64_t seen = 0;
  int right = 80 - hpos;  // the first pixel of the right half
  right = right < 0 ? 0 : (right > count ? count : right);
  if (draw) {
    // A local copy: stores to `out` could alias the TIA's registers.
    const uint8_t colours[4] = {tia.color[0], tia.color[1], tia.color[2], tia.color[3]};
    for (int i = 0; i < right; ++i) {
      seen |= 1ull << bits[i];
      out[i] = colours[colour[bits[i]]];
    }
    for (int i = right; i < count; ++i) {
      seen |= 1ull << bits[i];
      out[i] = colours[colour[256 + bits[i]]];
    }
  } else {
    for (int i = 0; i < count; ++i) seen |= 1ull << bits[i];
  }
  tia.collision |= collisions_of_sets(seen);
}

}  // namespace tia_detail

//! Draws every colour clock up to `clock` (ALE's TIA::updateFrame).
CULE_HD inline void tia_update(Tia& tia, const FrameBuffers& frames, int clock) {
  using namespace tia_detail;
  if (clock < tia.clock_start_display || tia.clock_at_last_update >= tia.clock_stop_display ||
      tia.clock_at_last_update >= clock) {
    return;
  }
  if (clock > tia.clock_stop_display) clock = tia.clock_stop_display;
  uint8_t* const frame = frames.current(tia);
  do {
    int clocks_to_update;
    int clocks_from_start = kClocksPerScanline - tia.clocks_to_end_of_scanline;
    if (clock > tia.clock_at_last_update + tia.clocks_to_end_of_scanline) {
      clocks_to_update = tia.clocks_to_end_of_scanline;
      tia.clocks_to_end_of_scanline = kClocksPerScanline;
      tia.clock_at_last_update += clocks_to_update;
    } else {
      clocks_to_update = clock - tia.clock_at_last_update;
      tia.clocks_to_end_of_scanline -= clocks_to_update;
      tia.clock_at_last_update = clock;
    }
    // Nothing is drawn during horizontal blank.
    if (clocks_from_start < kHBlankClocks) {
      const int skip = kHBlankClocks - clocks_from_start < clocks_to_update
                           ? kHBlankClocks - clocks_from_start
                           : clocks_to_update;
      clocks_from_start += skip;
      clocks_to_update -= skip;
    }
    const uint32_t line_pixel = tia.frame_pixel;
    if (clocks_to_update != 0) {
      draw_span(tia, frame + tia.frame_pixel, clocks_from_start - kHBlankClocks, clocks_to_update,
                frames.draw);
      tia.frame_pixel += clocks_to_update;
    }
    // HMOVE blank: the first 8 pixels of the line are black. As ALE, an
    // update ending inside the horizontal blank clears as many pixels as
    // the blank has clocks left plus 8 (up to 76; the beam redraws the rest).
    if (tia.hmove_blank_enabled && clocks_from_start < kHBlankClocks + 8) {
      const int blanks = kHBlankClocks + 8 - clocks_from_start;
      if (frames.draw) fill(frame + line_pixel, blanks, 0);
      if (clocks_to_update + clocks_from_start >= kHBlankClocks + 8) tia.hmove_blank_enabled = 0;
    }
    if (tia.clocks_to_end_of_scanline == kClocksPerScanline) {
      // End of a scanline: the playfield reflection and the players' first
      // copies take their current settings.
      tia.pf_reflect = tia.CTRLPF & 0x01;
      tia.p0_first_copy_hidden = 0;
      tia.p1_first_copy_hidden = 0;
      if (tia.cosmic_ark_enabled) {
        constexpr int kCosmicArkMotion[4] = {18, 33, 0, 17};
        tia.cosmic_ark_counter = (tia.cosmic_ark_counter + 1) & 3;
        tia.POSM0 = static_cast<int16_t>(tia.POSM0 - kCosmicArkMotion[tia.cosmic_ark_counter]);
        if (tia.POSM0 >= kScreenWidth) {
          tia.POSM0 -= kScreenWidth;
        } else if (tia.POSM0 < 0) {
          tia.POSM0 += kScreenWidth;
        }
        tia.m0_pattern = tia.cosmic_ark_counter == 1   ? kMissileStretched
                         : tia.cosmic_ark_counter == 2 ? kMissileHidden
                                                       : kMissileNormal;
      }
    }
  } while (tia.clock_at_last_update < clock);
}

//! Power-on register values and the first frame's timing (ALE's TIA::reset
//! and frameReset); clears both frame buffers.
CULE_HD inline void tia_reset(Tia& tia, const TiaConfig& config, const FrameBuffers& frames,
                              uint32_t cycles) {
  tia = Tia{};
  for (uint32_t i = 0; i < 2 * frames.size; ++i) frames.pixels[i] = 0;
  tia.clock_when_frame_started = int32_t(cycles * 3);
  tia.clock_start_display = tia.clock_when_frame_started + kClocksPerScanline * config.y_start;
  tia.clock_stop_display = tia.clock_start_display + kClocksPerScanline * config.height;
  tia.clock_at_last_update = tia.clock_when_frame_started;
  tia.clocks_to_end_of_scanline = kClocksPerScanline;
  tia.vsync_finish_clock = 0x7FFFFFFF;
}

//! The system cycle counter is about to go back to zero from `cycles`.
CULE_HD inline void tia_rebase_cycles(Tia& tia, uint32_t cycles) {
  const int32_t clocks = int32_t(cycles * 3);
  tia.dump_disabled_cycle -= int32_t(cycles);
  tia.clock_when_frame_started -= clocks;
  tia.clock_start_display -= clocks;
  tia.clock_stop_display -= clocks;
  tia.clock_at_last_update -= clocks;
  tia.vsync_finish_clock -= clocks;
  tia.last_hmove_clock -= clocks;
  tia.deferred_clock -= clocks;
}

//! Colour clocks into the current scanline (0-227) at `cycles`.
CULE_HD inline uint32_t tia_clocks_into_frame(const Tia& tia, uint32_t cycles) {
  return cycles * 3 - uint32_t(tia.clock_when_frame_started);
}

//! Starts drawing a new frame into the other buffer; `clocks_into_line` is
//! where the beam is on its scanline, with the cycle counter already rebased.
CULE_HD inline void tia_start_frame(Tia& tia, const TiaConfig& config, int32_t clocks_into_line) {
  tia.current_buffer ^= 1;
  tia.clock_when_frame_started = -clocks_into_line;
  tia.clock_start_display = tia.clock_when_frame_started + kClocksPerScanline * config.y_start;
  tia.clock_stop_display = tia.clock_start_display + kClocksPerScanline * config.height;
  tia.clock_at_last_update = tia.clock_start_display;
  tia.clocks_to_end_of_scanline = kClocksPerScanline;
  tia.frame_pixel = 0;
  if (config.color_loss) {
    for (uint8_t& c : tia.color) {
      c = (tia.scanline_count_for_last_frame & 0x01) ? uint8_t(c | 0x01) : uint8_t(c & 0xFE);
    }
  }
  tia.frame_greyed = 0;
}

//! A frame that ran out of instructions before its end is shown greyed out
//! from the current scanline down, as ALE does.
CULE_HD inline void tia_grey_out_frame(const Tia& tia, const TiaConfig& config,
                                       const FrameBuffers& frames, uint32_t cycles) {
  uint8_t* const frame = frames.current(tia);
  uint32_t first = tia_clocks_into_frame(tia, cycles) / kClocksPerScanline;
  if (first < uint32_t(config.y_start)) first = config.y_start;
  for (uint32_t s = first; s < uint32_t(config.height + config.y_start); ++s) {
    for (int i = 0; i < kScreenWidth; ++i) {
      uint8_t& p = frame[(s - config.y_start) * kScreenWidth + i];
      p = uint8_t((p & 0x0F) >> 1);
    }
  }
}

//! A read of a TIA register. `data_bus` is the last value on the data bus
//! (its low 6 bits float into the result).
CULE_HD inline uint8_t tia_read(Tia& tia, const FrameBuffers& frames, uint16_t address,
                                uint32_t cycles, uint8_t data_bus, const TiaInputs& inputs) {
  // Only the collision latches (0x00-0x07) depend on what is drawn.
  if ((address & 0x08) == 0) {
    tia_update(tia, frames, int(cycles * 3));
  } else {
    tia.deferred_clock = int(cycles * 3);
  }
  const uint8_t noise = data_bus & 0x3F;
  const uint16_t c = tia.collision;
  auto latch = [noise](bool b7, bool b6) -> uint8_t {
    return uint8_t((b7 ? 0x80 : 0) | (b6 ? 0x40 : 0) | noise);
  };
  switch (address & 0x0F) {
    case 0x00: return latch(c & 0x0001, c & 0x0002);  // CXM0P
    case 0x01: return latch(c & 0x0004, c & 0x0008);  // CXM1P
    case 0x02: return latch(c & 0x0010, c & 0x0020);  // CXP0FB
    case 0x03: return latch(c & 0x0040, c & 0x0080);  // CXP1FB
    case 0x04: return latch(c & 0x0100, c & 0x0200);  // CXM0FB
    case 0x05: return latch(c & 0x0400, c & 0x0800);  // CXM1FB
    case 0x06: return latch(c & 0x1000, false);       // CXBLPF
    case 0x07: return latch(c & 0x2000, c & 0x4000);  // CXPPMM
    case 0x08:
    case 0x09:
    case 0x0A:
    case 0x0B: {  // INPT0-3: paddle capacitors, charged through the resistance
      const int32_t r = inputs.resistance[address & 0x03];
      if (r == kMinimumResistance) return 0x80 | noise;
      if (r == kMaximumResistance || tia.dump_enabled) return noise;
      const double t = 1.6 * r * 0.01E-6;
      const uint32_t needed = uint32_t(t * 1.19E6);
      return cycles > uint32_t(tia.dump_disabled_cycle) + needed ? (0x80 | noise) : noise;
    }
    case 0x0C: return (inputs.fire & 0x01) ? noise : (0x80 | noise);  // INPT4
    case 0x0D: return (inputs.fire & 0x02) ? noise : (0x80 | noise);  // INPT5
    default: return noise;
  }
}

//! Whether a write to TIA register `address` (0x00-0x3F) can change what
//! is drawn or collides: all but WSYNC, RSYNC, the audio registers, the
//! motion registers HMP0, HMP1, HMM1, HMBL and HMCLR (read only by HMOVE,
//! which draws first) and the unused addresses. HMM0 can start ALE's
//! "Cosmic Ark" starfield, so it draws first.
CULE_HD inline bool tia_write_changes_drawing(uint16_t address) {
  switch (address) {
    case 0x02:
    case 0x03:
    case 0x15:
    case 0x16:
    case 0x17:
    case 0x18:
    case 0x19:
    case 0x1A:
    case 0x20:
    case 0x21:
    case 0x23:
    case 0x24:
    case 0x2B: return false;
    default: return address < 0x2D;
  }
}

//! Draws what accesses that changed nothing drawn have left undrawn (see
//! Tia::deferred_clock): at the end of a frame's run, so that the buffer
//! holds what ALE's does.
CULE_HD inline void tia_flush(Tia& tia, const FrameBuffers& frames) {
  tia_update(tia, frames, tia.deferred_clock);
}

//! What a TIA write asks of the CPU.
struct TiaWriteEffect {
  uint32_t wait_cycles;  //!< WSYNC: cycles to the end of the scanline
  bool end_frame;        //!< the frame is complete: stop the CPU after this instruction
};

//! A write to a TIA register (ALE's TIA::poke). `last_access_was_read` tells
//! whether the CPU's previous bus access was a read (WSYNC halts only then).
CULE_HD inline TiaWriteEffect tia_write(Tia& tia, const TiaConfig& config,
                                        const FrameBuffers& frames, uint16_t address, uint8_t value,
                                        uint32_t cycles, bool last_access_was_read) {
  using namespace tia_detail;
  TiaWriteEffect effect{0, false};
  address &= 0x3F;
  const int clock = int(cycles * 3);
  const int clocks_into_frame = clock - tia.clock_when_frame_started;
  // Where the beam is on its line (0-227); only some registers need it.
  auto line_clock = [clocks_into_frame] { return clocks_into_frame % kClocksPerScanline; };

  if (tia_write_changes_drawing(address)) {
    // Registers take effect this many colour clocks after the write.
    int delay = 0;
    switch (address) {
      case 0x01:
      case 0x0B:
      case 0x0C:
      case 0x1B:
      case 0x1C: delay = 1; break;
      case 0x04:
      case 0x05:
      case 0x12:
      case 0x13: delay = 8; break;
      case 0x0D:
      case 0x0E:
      case 0x0F: {  // playfield: depends on the clock within the CPU cycle
        constexpr int kPlayfieldDelay[4] = {4, 5, 2, 3};
        delay = kPlayfieldDelay[(line_clock() / 3) & 3];
        break;
      }
      default: break;
    }
    tia_update(tia, frames, clock + delay);
  } else {
    tia.deferred_clock = clock;
  }

  // A frame with no VSYNC ends after the maximum number of scanlines.
  if (clocks_into_frame >= (config.max_scanlines + 1) * kClocksPerScanline) {
    effect.end_frame = true;
  }

  const int hpos = line_clock();
  switch (address) {
    case 0x00:  // VSYNC
      tia.VSYNC = value;
      if (value & 0x02) {
        // ALE ends the frame when VSYNC is cleared at least one line later.
        tia.vsync_finish_clock = clock + kClocksPerScanline;
      } else if (clock >= tia.vsync_finish_clock) {
        tia.vsync_finish_clock = 0x7FFFFFFF;
        effect.end_frame = true;
      }
      break;
    case 0x01:  // VBLANK; bit 7 grounds the paddle capacitors
      if (!(tia.VBLANK & 0x80) && (value & 0x80)) tia.dump_enabled = 1;
      if ((tia.VBLANK & 0x80) && !(value & 0x80)) {
        tia.dump_enabled = 0;
        tia.dump_disabled_cycle = int32_t(cycles);
      }
      tia.VBLANK = value;
      break;
    case 0x02:  // WSYNC: the 6507 halts only on a read cycle
      if (last_access_was_read) {
        const uint32_t to_end_of_line =
            76 - ((cycles - uint32_t(tia.clock_when_frame_started / 3)) % 76);
        if (to_end_of_line < 76) effect.wait_cycles = to_end_of_line;
      }
      break;
    case 0x04:  // NUSIZ0
      tia.NUSIZ0 = value;
      tia.p0_first_copy_hidden = 0;
      tia.m0_pattern = kMissileNormal;
      break;
    case 0x05:  // NUSIZ1
      tia.NUSIZ1 = value;
      tia.p1_first_copy_hidden = 0;
      break;
    case 0x06: tia.color[2] = colour_register(config, tia, value); break;  // COLUP0
    case 0x07: tia.color[3] = colour_register(config, tia, value); break;  // COLUP1
    case 0x08: tia.color[1] = colour_register(config, tia, value); break;  // COLUPF
    case 0x09: tia.color[0] = colour_register(config, tia, value); break;  // COLUBK
    case 0x0A:  // CTRLPF; reflection changes only on the left half of a line
      tia.CTRLPF = value;
      tia.playfield_priority_and_score = uint8_t((value & 0x06) << 5);
      if (hpos < kHBlankClocks + 79) tia.pf_reflect = value & 0x01;
      break;
    case 0x0B:  // REFP0
      if (bool(value & 0x08) != bool(tia.REFP0)) {
        tia.REFP0 = value & 0x08;
        tia.current_grp0 = reverse_bits(tia.current_grp0);
      }
      break;
    case 0x0C:  // REFP1
      if (bool(value & 0x08) != bool(tia.REFP1)) {
        tia.REFP1 = value & 0x08;
        tia.current_grp1 = reverse_bits(tia.current_grp1);
      }
      break;
    case 0x0D:  // PF0
      tia.PF = (tia.PF & 0x000FFFF0) | ((value >> 4) & 0x0F);
      set_enabled(tia, kPFBit, tia.PF != 0);
      break;
    case 0x0E:  // PF1
      tia.PF = (tia.PF & 0x000FF00F) | (uint32_t(value) << 4);
      set_enabled(tia, kPFBit, tia.PF != 0);
      break;
    case 0x0F:  // PF2
      tia.PF = (tia.PF & 0x00000FFF) | (uint32_t(value) << 12);
      set_enabled(tia, kPFBit, tia.PF != 0);
      break;
    case 0x10:    // RESP0
    case 0x11: {  // RESP1
      const bool p1 = address == 0x11;
      const int newx = hpos < kHBlankClocks ? 3 : ((hpos - kHBlankClocks) + 5) % kScreenWidth;
      int16_t& pos = p1 ? tia.POSP1 : tia.POSP0;
      const int when = player_reset_when(p1 ? tia.NUSIZ1 : tia.NUSIZ0, pos, newx);
      // Inside a displayed copy, ALE lets the copy finish drawing first.
      if (when == 1) tia_update(tia, frames, clock + 11);
      pos = static_cast<int16_t>(newx);
      (p1 ? tia.p1_first_copy_hidden : tia.p0_first_copy_hidden) = when != -1;
      break;
    }
    case 0x12:  // RESM0
      tia.POSM0 = static_cast<int16_t>(
          hpos < kHBlankClocks ? 2 : ((hpos - kHBlankClocks) + 4) % kScreenWidth);
      // ALE's special case for Dolphin: RESM0 20 cycles after HMOVE.
      if (clock - tia.last_hmove_clock == 20 * 3 && hpos == 69) tia.POSM0 = 8;
      tia.m0_pattern = kMissileNormal;
      break;
    case 0x13:  // RESM1
      tia.POSM1 = static_cast<int16_t>(
          hpos < kHBlankClocks ? 2 : ((hpos - kHBlankClocks) + 4) % kScreenWidth);
      // ALE's special case for Pitfall II: RESM1 3 cycles after HMOVE.
      if (clock - tia.last_hmove_clock == 3 * 3 && hpos == 18) tia.POSM1 = 3;
      break;
    case 0x14: {  // RESBL
      tia.POSBL = static_cast<int16_t>(
          hpos < kHBlankClocks ? 2 : ((hpos - kHBlankClocks) + 4) % kScreenWidth);
      // ALE's special cases for Escape from the Mindmaster, Decathlon, Robot
      // Tank and Hole Hunter: RESBL 18, 3, 7 or 6 cycles after HMOVE.
      const int since_hmove = clock - tia.last_hmove_clock;
      if (since_hmove == 18 * 3 && (hpos == 60 || hpos == 69)) {
        tia.POSBL = 10;
      } else if (since_hmove == 3 * 3 && hpos == 18) {
        tia.POSBL = 3;
      } else if (since_hmove == 7 * 3 && hpos == 30) {
        tia.POSBL = 6;
      } else if (since_hmove == 6 * 3 && hpos == 27) {
        tia.POSBL = 5;
      }
      break;
    }
    case 0x1B:  // GRP0: also moves GRP1 into its delay register
      tia.GRP0 = value;
      tia.DGRP1 = tia.GRP1;
      refresh_player_graphics(tia);
      break;
    case 0x1C:  // GRP1: also moves GRP0 and ENABL into their delay registers
      tia.GRP1 = value;
      tia.DGRP0 = tia.GRP0;
      tia.DENABL = tia.ENABL;
      refresh_player_graphics(tia);
      refresh_ball_enable(tia);
      break;
    case 0x1D:  // ENAM0
      tia.ENAM0 = value & 0x02;
      set_enabled(tia, kM0Bit, tia.ENAM0 && !tia.RESMP0);
      break;
    case 0x1E:  // ENAM1
      tia.ENAM1 = value & 0x02;
      set_enabled(tia, kM1Bit, tia.ENAM1 && !tia.RESMP1);
      break;
    case 0x1F:  // ENABL
      tia.ENABL = value & 0x02;
      refresh_ball_enable(tia);
      break;
    case 0x20: tia.HMP0 = value >> 4; break;
    case 0x21: tia.HMP1 = value >> 4; break;
    case 0x22: {  // HMM0
      const uint8_t motion = value >> 4;
      // ALE's trigger for the "Cosmic Ark" starfield: HMM0 7 -> 6, 21 cycles after HMOVE.
      if (clock == tia.last_hmove_clock + 21 * 3 && tia.HMM0 == 7 && motion == 6) {
        tia.cosmic_ark_enabled = 1;
        tia.cosmic_ark_counter = 0;
      }
      tia.HMM0 = motion;
      break;
    }
    case 0x23: tia.HMM1 = value >> 4; break;
    case 0x24: tia.HMBL = value >> 4; break;
    case 0x25:  // VDELP0
      tia.VDELP0 = value & 0x01;
      refresh_player_graphics(tia);
      break;
    case 0x26:  // VDELP1
      tia.VDELP1 = value & 0x01;
      refresh_player_graphics(tia);
      break;
    case 0x27:  // VDELBL
      tia.VDELBL = value & 0x01;
      refresh_ball_enable(tia);
      break;
    case 0x28:    // RESMP0
    case 0x29: {  // RESMP1: releasing puts the missile at the player's centre
      const bool m1 = address == 0x29;
      uint8_t& resmp = m1 ? tia.RESMP1 : tia.RESMP0;
      if (resmp && !(value & 0x02)) {
        const uint8_t mode = (m1 ? tia.NUSIZ1 : tia.NUSIZ0) & 0x07;
        const int middle = mode == 5 ? 8 : mode == 7 ? 16 : 4;
        (m1 ? tia.POSM1 : tia.POSM0) =
            static_cast<int16_t>(((m1 ? tia.POSP1 : tia.POSP0) + middle) % kScreenWidth);
        if (!m1) tia.m0_pattern = kMissileNormal;
      }
      resmp = value & 0x02;
      if (m1) {
        set_enabled(tia, kM1Bit, tia.ENAM1 && !tia.RESMP1);
      } else {
        set_enabled(tia, kM0Bit, tia.ENAM0 && !tia.RESMP0);
      }
      break;
    }
    case 0x2A: {  // HMOVE
      const int x = hpos / 3;
      if (config.hmove_blanks && hmove_blank_cycle(x)) tia.hmove_blank_enabled = 1;
      int16_t* const positions[5] = {&tia.POSP0, &tia.POSP1, &tia.POSM0, &tia.POSM1, &tia.POSBL};
      const uint8_t motions[5] = {tia.HMP0, tia.HMP1, tia.HMM0, tia.HMM1, tia.HMBL};
      for (int i = 0; i < 5; ++i) {
        int p = *positions[i] + hmove_motion(x, motions[i]);
        if (p >= kScreenWidth) {
          p -= kScreenWidth;
        } else if (p < 0) {
          p += kScreenWidth;
        }
        *positions[i] = static_cast<int16_t>(p);
      }
      tia.p0_first_copy_hidden = 0;
      tia.p1_first_copy_hidden = 0;
      tia.m0_pattern = kMissileNormal;
      tia.last_hmove_clock = clock;
      tia.cosmic_ark_enabled = 0;
      break;
    }
    case 0x2B:  // HMCLR
      tia.HMP0 = tia.HMP1 = tia.HMM0 = tia.HMM1 = tia.HMBL = 0;
      break;
    case 0x2C: tia.collision = 0; break;  // CXCLR
    default: break;                       // RSYNC, audio and unused addresses
  }
  return effect;
}

}  // namespace cule
