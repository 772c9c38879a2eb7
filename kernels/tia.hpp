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
#include <cstring>

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
  // input reads, writes of the values already there) leave the drawing to
  // the next access that does, or to the frame's end: this is the clock
  // ALE would have drawn up to by then (see tia_defer).
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
  uint8_t enabled_objects;             // kP0Bit-kPFBit: the objects with pixels to show (draw_span)

  // How the object patterns were last set up
  uint8_t pf_reflect;  // reflection in effect (CTRLPF bit 0 latched mid-line)
  uint8_t p0_first_copy_hidden, p1_first_copy_hidden;
  uint8_t m0_pattern;  // kMissileNormal, kMissileStretched or kMissileHidden
};

//! FrameBuffers::draw_ahead_rows for every row of any picture.
constexpr uint16_t kAllRows = 0xFFFF;

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
  // Rows of the picture, from its top, in which the device's CPU loop may
  // draw ahead of the accesses (see console_run_instructions); 0: none. A
  // frame that may be run again, if undrawn; if drawn, no further than the
  // rows that the frame two before it, into the same buffer, draws over
  // first in that run: the pixels drawn ahead past the frame's last access
  // stay in the buffer, and the run again leaves them stale.
  uint16_t draw_ahead_rows = 0;
  CULE_HD uint8_t* current(const Tia& tia) const { return pixels + tia.current_buffer * size; }
};

namespace tia_detail {

// x mod 160 for x in (-160, 320): differences of two positions.
CULE_HD inline int wrap160(int x) {
  if (x < 0) return x + kScreenWidth;
  return x >= kScreenWidth ? x - kScreenWidth : x;
}

// The device reverses bits in one instruction (BREV).
CULE_HD inline uint8_t reverse_bits(uint8_t b) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint8_t>(__brev(b) >> 24);
#else
  b = static_cast<uint8_t>((b & 0xF0) >> 4 | (b & 0x0F) << 4);
  b = static_cast<uint8_t>((b & 0xCC) >> 2 | (b & 0x33) << 2);
  return static_cast<uint8_t>((b & 0xAA) >> 1 | (b & 0x55) << 1);
#endif
}

// Copies after the first, by NUSIZ number: close (16), medium (32), wide (64).
CULE_HD inline bool has_copy_at(uint8_t number, int offset) {
  switch (offset) {
    case 16: return number == 1 || number == 3;
    case 32: return number == 2 || number == 3 || number == 6;
    default: return number == 4 || number == 6;  // 64
  }
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

// A span is drawn 64 pixels at a time with each object's pixels as the bits
// of a word (bit i: the chunk's pixel i): colours and collisions then take a
// few logic operations per word instead of a few per pixel.

// An object's pixels by offset from its position: bit d of (lo, hi) is set
// when offset d shows the object. Every object ends before offset 80 (a copy
// at 64 is at most 8 wide; a stretched player ends at 33).
struct ObjectPixels {
  uint64_t lo, hi;
};

// 64 pixels of an object from offset `start` (0-159); offsets wrap at 160.
CULE_HD inline uint64_t object_window(ObjectPixels object, int start) {
  uint64_t window = start == 0    ? object.lo
                    : start < 64  ? object.lo >> start | object.hi << (64 - start)
                    : start < 128 ? object.hi >> (start - 64)
                                  : 0;
  if (start > 96) window |= object.lo << (160 - start);  // offsets 0, 1, ... after 159
  return window;
}

// Pixels from an object's position to the end of its last copy, for copies
// `width` wide, by NUSIZ number.
CULE_HD inline int copies_extent(uint8_t number, int width) {
  const int last_copy = has_copy_at(number, 64)   ? 64
                        : has_copy_at(number, 32) ? 32
                        : has_copy_at(number, 16) ? 16
                                                  : 0;
  return last_copy + width;
}

// The same for a player: double and quad players end at 17 and 33.
CULE_HD inline int player_extent(uint8_t number) {
  return number == 5 ? 17 : number == 7 ? 33 : copies_extent(number, 8);
}

// Whether an object at `position` with pixels only within `extent` of it
// can show any in the span [hpos, hpos + count).
CULE_HD inline bool reaches_span(int position, int extent, int hpos, int count) {
  const int start = wrap160(hpos - position);  // the span's first pixel, from the object
  return start < extent || start + count > kScreenWidth;
}

// Each of bits 0-15 repeated 4 times: bit i to bits 4i-4i+3.
CULE_HD inline uint64_t stretch4(uint64_t x) {
  x = (x | x << 24) & 0x000000FF000000FFull;
  x = (x | x << 12) & 0x000F000F000F000Full;
  x = (x | x << 6) & 0x0303030303030303ull;
  x = (x | x << 3) & 0x1111111111111111ull;
  return x * 0xF;
}

// Each of bits 0-7 repeated twice: bit i to bits 2i and 2i+1.
CULE_HD inline uint64_t stretch2(uint64_t x) {
  x = (x | x << 4) & 0x0F0F;
  x = (x | x << 2) & 0x3333;
  x = (x | x << 1) & 0x5555;
  return x * 3;
}

// An object of `copy` pixels (at most 8 wide) repeated as NUSIZ `number`
// says, after a first copy of `first` pixels.
CULE_HD inline ObjectPixels with_copies(uint64_t first, uint64_t copy, uint8_t number) {
  uint64_t lo = first;
  if (has_copy_at(number, 16)) lo |= copy << 16;
  if (has_copy_at(number, 32)) lo |= copy << 32;
  return {lo, has_copy_at(number, 64) ? copy : 0};
}

// A player: 8 graphics bits per copy, high bit first; double and quad
// players are one copy, stretched, starting one pixel late.
CULE_HD inline ObjectPixels player_pixels(uint8_t grp, uint8_t nusiz, bool first_copy_hidden) {
  const uint64_t bits = reverse_bits(grp);  // offset j shows graphics bit 7 - j
  const uint8_t number = nusiz & 0x07;
  if (number == 5 || number == 7) {
    if (first_copy_hidden) return {0, 0};
    return {(number == 5 ? stretch2(bits) : stretch4(bits)) << 1, 0};
  }
  return with_copies(first_copy_hidden ? 0 : bits, bits, number);
}

// A missile: `width` pixels per copy.
CULE_HD inline ObjectPixels missile_pixels(uint8_t number, int width) {
  const uint64_t bits = (1ull << width) - 1;
  return with_copies(bits, bits, number);
}

// Bits 0-19 of x in reverse order.
CULE_HD inline uint32_t reverse20(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __brev(x) >> 12;
#else
  return uint32_t(reverse_bits(uint8_t(x))) << 12 | uint32_t(reverse_bits(uint8_t(x >> 8))) << 4 |
         reverse_bits(uint8_t(x >> 12 & 0xF0));
#endif
}

// The playfield's 40 bits of a line, bit i for pixels 4i-4i+3: PF0 bits 4-7,
// PF1 bits 7-0, PF2 bits 0-7, then the right half, which repeats the left or,
// reflected, mirrors it.
CULE_HD inline uint64_t playfield_line(uint32_t pf, bool reflect) {
  // PF holds PF0 4-7 in bits 0-3, PF1 in 4-11 and PF2 in 12-19.
  const uint32_t left = (pf & 0xFF00F) | uint32_t(reverse_bits(uint8_t(pf >> 4))) << 4;
  return left | uint64_t(reflect ? reverse20(left) : left) << 20;
}

// 64 playfield pixels from screen position x (0-159); none past 159. They
// span 17 playfield bits: 16 stretched, and the 17th for the last `phase`.
CULE_HD inline uint64_t playfield_window(uint64_t line, int x) {
  const uint64_t bits = line >> (x >> 2);
  const int phase = x & 3;
  uint64_t window = stretch4(bits & 0xFFFF) >> phase;
  if (phase != 0 && (bits >> 16 & 1)) window |= ~0ull << (64 - phase);
  return window;
}

// The collision latches (CXM0P.. CXPPMM bit order) set where two objects'
// pixels meet.
CULE_HD inline uint16_t collisions_of(uint64_t p0, uint64_t m0, uint64_t p1, uint64_t m1,
                                      uint64_t bl, uint64_t pf) {
  auto meet = [](uint64_t a, uint64_t b) { return uint16_t((a & b) != 0); };
  return uint16_t(meet(m0, p1) << 0 | meet(m0, p0) << 1 | meet(m1, p0) << 2 | meet(m1, p1) << 3 |
                  meet(p0, pf) << 4 | meet(p0, bl) << 5 | meet(p1, pf) << 6 | meet(p1, bl) << 7 |
                  meet(m0, pf) << 8 | meet(m0, bl) << 9 | meet(m1, pf) << 10 | meet(m1, bl) << 11 |
                  meet(bl, pf) << 12 | meet(p0, p1) << 13 | meet(m0, m1) << 14);
}

// Each of 8 bits as a byte of 0x00 or 0xFF: bit i to byte i.
CULE_HD constexpr uint64_t byte_mask_of(uint32_t bits) {
  uint64_t x = (bits * 0x0101010101010101ull) & 0x8040201008040201ull;  // bit i alone in byte i
  x = (x + 0x7F7F7F7F7F7F7F7Full) & 0x8080808080808080ull;              // byte top bit: set
  return (x >> 7) * 0xFF;
}

struct ByteMasks {
  uint64_t mask[256];
};

CULE_HD constexpr ByteMasks make_byte_masks() {
  ByteMasks table{};
  for (uint32_t i = 0; i < 256; ++i) table.mask[i] = byte_mask_of(i);
  return table;
}

inline constexpr ByteMasks kByteMasksHost = make_byte_masks();

// The host looks the masks up; device threads, which each read a different
// entry, compute them.
CULE_HD inline uint64_t byte_mask(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return byte_mask_of(bits);
#else
  return kByteMasksHost.mask[bits];
#endif
}

// Stores the first n (1-8) pixels of `pixels`, pixel i in byte i.
CULE_HD inline void store_pixels(uint8_t* out, uint64_t pixels, int n) {
#if defined(__CUDA_ARCH__)
  if (n == 8 && (reinterpret_cast<uintptr_t>(out) & 3) == 0) {
    reinterpret_cast<uint32_t*>(out)[0] = uint32_t(pixels);
    reinterpret_cast<uint32_t*>(out)[1] = uint32_t(pixels >> 32);
    return;
  }
#else
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "pixel i is byte i of a word");
  if (n == 8) {
    memcpy(out, &pixels, 8);
    return;
  }
#endif
  for (int i = 0; i < n; ++i) out[i] = uint8_t(pixels >> (8 * i));
}

// Stores 8 pixels, pixel i in byte i, at a multiple of 4 bytes.
CULE_HD inline void store_aligned_pixels(uint8_t* out, uint64_t pixels) {
#if defined(__CUDA_ARCH__)
  reinterpret_cast<uint32_t*>(out)[0] = uint32_t(pixels);
  reinterpret_cast<uint32_t*>(out)[1] = uint32_t(pixels >> 32);
#else
  // Only the tests run this on the host: fail there where the device would.
  if (reinterpret_cast<uintptr_t>(out) & 3) __builtin_trap();
  memcpy(out, &pixels, 8);
#endif
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

// How draw_span writes a chunk's pixels, each the colour register the
// priority logic picks for it (background, playfield, player 0 or player 1).
// The host XORs each colour in under byte masks looked up by 8 pixel bits.
// On the device a byte mask takes some 16 instructions of 64-bit arithmetic
// (threads would each read a different table entry), so there one byte
// permute picks 4 pixels' bytes out of the 4 colours, by 2-bit selectors
// spread from the pixel bits, and chunks start at aligned words.
enum class PixelWrites : uint8_t { byte_masks, byte_select };
// 0: the device writes pixels by byte masks too (a build for
// benchmarks/gpu/check.sh --sweep to compare).
#ifndef CULE_DEVICE_BYTE_SELECT
#define CULE_DEVICE_BYTE_SELECT 1
#endif
#if defined(__CUDA_ARCH__) && CULE_DEVICE_BYTE_SELECT
constexpr PixelWrites kPixelWrites = PixelWrites::byte_select;
#else
constexpr PixelWrites kPixelWrites = PixelWrites::byte_masks;
#endif

// Whether draw_span leaves out the objects that cannot reach a span. 0: the
// device does not (a build for benchmarks/gpu/check.sh --sweep to compare):
// each lane pays for the test, and a warp gains only where all its lanes
// leave an object out.
#ifndef CULE_DEVICE_CULL_OBJECTS
#define CULE_DEVICE_CULL_OBJECTS 1
#endif
#if defined(__CUDA_ARCH__) && !CULE_DEVICE_CULL_OBJECTS
constexpr bool kCullObjects = false;
#else
constexpr bool kCullObjects = true;
#endif

// Bits 0-7 of x to bits 0, 4, ..., 28 (bit k to bit 4k).
CULE_HD inline uint32_t spread_to_nibbles(uint32_t x) {
  x = (x | x << 12) & 0x000F000Fu;
  x = (x | x << 6) & 0x03030303u;
  return (x | x << 3) & 0x11111111u;
}

// Byte k of the result: byte (selectors >> 4k) & 3 of `colours`, k = 0-3.
CULE_HD inline uint32_t pick_bytes(uint32_t colours, uint32_t selectors) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(colours, 0, selectors);
#else
  uint32_t picked = 0;
  for (int k = 0; k < 4; ++k) {
    picked |= (colours >> (8 * ((selectors >> (4 * k)) & 3)) & 0xFF) << (8 * k);
  }
  return picked;
#endif
}

// Draws `count` pixels of one scanline from hpos (when `draw`), and
// latches collisions.
template <PixelWrites kWrites = kPixelWrites>
CULE_HD inline void draw_span(Tia& tia, uint8_t* out, int hpos, int count, bool draw) {
  if (tia.VBLANK & 0x02) {
    if (draw) fill(out, count, 0);
    return;
  }
  const uint8_t nusiz0 = tia.NUSIZ0, nusiz1 = tia.NUSIZ1;
  uint8_t on = tia.enabled_objects;
  if (tia.m0_pattern == kMissileHidden) on &= uint8_t(~kM0Bit);
  auto fewer_than_two = [](uint8_t objects) { return (objects & (objects - 1)) == 0; };
  // Without pixels, only spans where two objects can meet matter.
  if (!draw && fewer_than_two(on)) return;
  const int m0_width = 1 << (((nusiz0 & 0x30) >> 4) | (tia.m0_pattern == kMissileStretched));
  const int m1_width = 1 << ((nusiz1 & 0x30) >> 4);
  const int bl_width = 1 << ((tia.CTRLPF & 0x30) >> 4);
  const int pos_p0 = tia.POSP0, pos_m0 = tia.POSM0, pos_p1 = tia.POSP1, pos_m1 = tia.POSM1,
            pos_bl = tia.POSBL;
  // Objects whose copies all lie outside the span are off for it (a whole
  // line holds every object, and the playfield spans it).
  if (kCullObjects && (on & ~kPFBit) != 0 && count < kScreenWidth) {
    auto cull = [&](uint8_t bit, int position, int extent) {
      if ((on & bit) && !reaches_span(position, extent, hpos, count)) on &= uint8_t(~bit);
    };
    cull(kP0Bit, pos_p0, player_extent(nusiz0 & 0x07));
    cull(kM0Bit, pos_m0, copies_extent(nusiz0 & 0x07, m0_width));
    cull(kP1Bit, pos_p1, player_extent(nusiz1 & 0x07));
    cull(kM1Bit, pos_m1, copies_extent(nusiz1 & 0x07, m1_width));
    cull(kBLBit, pos_bl, bl_width);
    if (!draw && fewer_than_two(on)) return;
  }
  if (on == 0) {
    fill(out, count, tia.color[0]);
    return;
  }
  const bool p0_on = on & kP0Bit, m0_on = on & kM0Bit, p1_on = on & kP1Bit;
  const bool m1_on = on & kM1Bit, bl_on = on & kBLBit, pf_on = on & kPFBit;
  constexpr ObjectPixels kNone = {0, 0};
  const ObjectPixels p0 =
      p0_on ? player_pixels(tia.current_grp0, nusiz0, tia.p0_first_copy_hidden) : kNone;
  const ObjectPixels p1 =
      p1_on ? player_pixels(tia.current_grp1, nusiz1, tia.p1_first_copy_hidden) : kNone;
  const ObjectPixels m0 = m0_on ? missile_pixels(nusiz0 & 0x07, m0_width) : kNone;
  const ObjectPixels m1 = m1_on ? missile_pixels(nusiz1 & 0x07, m1_width) : kNone;
  const ObjectPixels bl = bl_on ? ObjectPixels{(1ull << bl_width) - 1, 0} : kNone;
  const uint64_t pf = pf_on ? playfield_line(tia.PF, tia.pf_reflect) : 0;
  const uint8_t modes = tia.playfield_priority_and_score;
  // Colour registers as 8 pixels of each: the background, and how each of
  // the others differs from it (by byte masks); or as the bytes of a word
  // (by byte select).
  constexpr uint64_t kBytes = 0x0101010101010101ull;
  const uint64_t background = tia.color[0] * kBytes;
  const uint64_t playfield_delta = (tia.color[1] ^ tia.color[0]) * kBytes;
  const uint64_t p0_delta = (tia.color[2] ^ tia.color[0]) * kBytes;
  const uint64_t p1_delta = (tia.color[3] ^ tia.color[0]) * kBytes;
  const uint32_t colours = uint32_t(tia.color[0]) | uint32_t(tia.color[1]) << 8 |
                           uint32_t(tia.color[2]) << 16 | uint32_t(tia.color[3]) << 24;
  // Chunks of 64 pixels; by byte select, a first chunk of 1-3 pixels
  // brings the others to word boundaries.
  int chunk = 64;
  if constexpr (kWrites == PixelWrites::byte_select) {
    const int to_word = int(-reinterpret_cast<uintptr_t>(out) & 3);
    if (draw && to_word != 0) chunk = to_word;
  }
  uint16_t latches = 0;
  for (int base = 0; base < count; base += chunk, chunk = 64) {
    const int x = hpos + base;
    const int n = count - base < chunk ? count - base : chunk;
    const uint64_t in_span = n == 64 ? ~0ull : (1ull << n) - 1;
    auto window = [&](bool on, ObjectPixels object, int position) {
      return on ? object_window(object, wrap160(x - position)) & in_span : 0;
    };
    const uint64_t p0_bits = window(p0_on, p0, pos_p0), m0_bits = window(m0_on, m0, pos_m0);
    const uint64_t p1_bits = window(p1_on, p1, pos_p1), m1_bits = window(m1_on, m1, pos_m1);
    const uint64_t bl_bits = window(bl_on, bl, pos_bl);
    const uint64_t pf_bits = pf_on ? playfield_window(pf, x) & in_span : 0;
    // Pixels of any object, and of two or more: only the latter collide.
    uint64_t shown = p0_bits, overlap = 0;
    auto add = [&](uint64_t bits) {
      overlap |= shown & bits;
      shown |= bits;
    };
    add(m0_bits), add(p1_bits), add(m1_bits), add(bl_bits), add(pf_bits);
    if (overlap) latches |= collisions_of(p0_bits, m0_bits, p1_bits, m1_bits, bl_bits, pf_bits);
    if (!draw) continue;
    // ALE's priorities, as the colour register each pixel takes.
    const uint64_t p0m0 = p0_bits | m0_bits, p1m1 = p1_bits | m1_bits;
    uint64_t as_playfield, as_p0, as_p1;
    if (modes & kPriorityBit) {
      // The playfield and ball in front; score mode is ignored.
      as_playfield = pf_bits | bl_bits;
      as_p0 = p0m0 & ~as_playfield;
      as_p1 = p1m1 & ~as_playfield & ~p0m0;
    } else if (modes & kScoreBit) {
      // The playfield in player 0's colour on the left half, player 1's on the right.
      const uint64_t right = x >= 80 ? ~0ull : x + 64 <= 80 ? 0 : ~0ull << (80 - x);
      as_p0 = p0m0 | (pf_bits & ~right);
      as_p1 = (p1m1 | (pf_bits & right)) & ~as_p0;
      as_playfield = bl_bits & ~as_p0 & ~as_p1;
    } else {
      as_p0 = p0m0;
      as_p1 = p1m1 & ~p0m0;
      as_playfield = (pf_bits | bl_bits) & ~p0m0 & ~p1m1;
    }
    if constexpr (kWrites == PixelWrites::byte_select) {
      // Selector 0 background, 1 playfield, 2 player 0, 3 player 1.
      const uint64_t selector_low = as_playfield | as_p1, selector_high = as_p0 | as_p1;
      auto pixels_from = [&](int i) {
        const uint32_t selectors = spread_to_nibbles(uint32_t(selector_low >> i) & 0xFF) |
                                   spread_to_nibbles(uint32_t(selector_high >> i) & 0xFF) << 1;
        return pick_bytes(colours, selectors) | uint64_t(pick_bytes(colours, selectors >> 16))
                                                    << 32;
      };
      int i = 0;
      for (; i + 8 <= n; i += 8) store_aligned_pixels(out + base + i, pixels_from(i));
      if (i < n) store_pixels(out + base + i, pixels_from(i), n - i);
    } else {
      for (int i = 0; i < n; i += 8) {
        uint64_t pixels = background;
        if ((shown >> i) & 0xFF) {
          pixels ^= (byte_mask((as_playfield >> i) & 0xFF) & playfield_delta) ^
                    (byte_mask((as_p0 >> i) & 0xFF) & p0_delta) ^
                    (byte_mask((as_p1 >> i) & 0xFF) & p1_delta);
        }
        store_pixels(out + base + i, pixels, n - i < 8 ? n - i : 8);
      }
    }
  }
  tia.collision |= latches;
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

//! Rows a new frame has drawn over from its top (FrameBuffers::draw_ahead_rows).
CULE_HD inline uint16_t tia_rows_drawn(const Tia& tia) {
  return uint16_t(tia.frame_pixel / kScreenWidth);
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

//! An access that would draw up to `clock` leaves it to a later one (see
//! Tia::deferred_clock). Each of ALE's accesses draws up to its clock, or
//! past it by a register's delay, so the next access's clock can fall short
//! of where ALE has drawn.
CULE_HD inline void tia_defer(Tia& tia, int clock) {
  if (clock > tia.deferred_clock) tia.deferred_clock = clock;
}

//! A read of a TIA register. `data_bus` is the last value on the data bus
//! (its low 6 bits float into the result).
CULE_HD inline uint8_t tia_read(Tia& tia, const FrameBuffers& frames, uint16_t address,
                                uint32_t cycles, uint8_t data_bus, const TiaInputs& inputs) {
  // Only the collision latches (0x00-0x07) depend on what is drawn.
  if ((address & 0x08) == 0) {
    tia_update(tia, frames, int(cycles * 3));
  } else {
    tia_defer(tia, int(cycles * 3));
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

//! Whether writing `value` to register `address` leaves every register as
//! it is, so that drawing can wait (the pixels come out the same): a write
//! of the value already there to a colour, playfield, graphics or enable
//! register (GRP0 and GRP1 also copy the other's graphics, and GRP1 the
//! ball's enable, into the delay registers: those must hold them already).
//! Games rewrite those registers every line, mostly with the same values
//! (in Pong some 9 of 10 writes a frame).
CULE_HD inline bool tia_write_changes_nothing(const Tia& tia, const TiaConfig& config,
                                              uint16_t address, uint8_t value) {
  using namespace tia_detail;
  switch (address) {
    case 0x06: return colour_register(config, tia, value) == tia.color[2];  // COLUP0
    case 0x07: return colour_register(config, tia, value) == tia.color[3];  // COLUP1
    case 0x08: return colour_register(config, tia, value) == tia.color[1];  // COLUPF
    case 0x09: return colour_register(config, tia, value) == tia.color[0];  // COLUBK
    case 0x0D: return uint32_t(value >> 4) == (tia.PF & 0x0F);              // PF0
    case 0x0E: return value == ((tia.PF >> 4) & 0xFF);                      // PF1
    case 0x0F: return value == (tia.PF >> 12);                              // PF2
    case 0x1B: return value == tia.GRP0 && tia.DGRP1 == tia.GRP1;           // GRP0
    case 0x1C: return value == tia.GRP1 && tia.DGRP0 == tia.GRP0 && tia.DENABL == tia.ENABL;
    case 0x1D: return (value & 0x02) == tia.ENAM0;  // ENAM0
    case 0x1E: return (value & 0x02) == tia.ENAM1;  // ENAM1
    case 0x1F: return (value & 0x02) == tia.ENABL;  // ENABL
    default: return false;
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

namespace tia_detail {

//! Colour clocks after a write to `address` before the register takes
//! effect, for those that change drawing (tia_write_changes_drawing).
CULE_HD inline int write_delay(uint16_t address, int clocks_into_frame) {
  // VBLANK, REFP0, REFP1, GRP0 and GRP1: 1 clock.
  constexpr uint64_t kOneClock =
      1ull << 0x01 | 1ull << 0x0B | 1ull << 0x0C | 1ull << 0x1B | 1ull << 0x1C;
  // NUSIZ0, NUSIZ1, RESM0 and RESM1: 8 clocks.
  constexpr uint64_t kEightClocks = 1ull << 0x04 | 1ull << 0x05 | 1ull << 0x12 | 1ull << 0x13;
  // PF0, PF1 and PF2.
  constexpr uint64_t kPlayfield = 1ull << 0x0D | 1ull << 0x0E | 1ull << 0x0F;
  const uint64_t bit = 1ull << address;
  if (bit & kOneClock) return 1;
  if (bit & kEightClocks) return 8;
  if (bit & kPlayfield) {
    // 4, 5, 2 or 3 clocks (nibble k of 0x3254) by k, the line's CPU cycle
    // modulo 4.
    const int k = (clocks_into_frame % kClocksPerScanline / 3) & 3;
    return (0x3254 >> (4 * k)) & 0x0F;
  }
  return 0;
}

//! The register change of a write that does change one (all but WSYNC and
//! those tia_write_changes_nothing finds), once tia_write has drawn up to
//! where it takes effect.
CULE_HD inline TiaWriteEffect write_register(Tia& tia, const TiaConfig& config,
                                             const FrameBuffers& frames, uint16_t address,
                                             uint8_t value, uint32_t cycles,
                                             int clocks_into_frame) {
  TiaWriteEffect effect{0, false};
  const int clock = int(cycles * 3);
  const int hpos = clocks_into_frame % kClocksPerScanline;
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

}  // namespace tia_detail

//! A write to a TIA register (ALE's TIA::poke). `last_access_was_read` tells
//! whether the CPU's previous bus access was a read (WSYNC halts only then).
CULE_HD inline TiaWriteEffect tia_write(Tia& tia, const TiaConfig& config,
                                        const FrameBuffers& frames, uint16_t address, uint8_t value,
                                        uint32_t cycles, bool last_access_was_read) {
  using namespace tia_detail;
  address &= 0x3F;
  const int clock = int(cycles * 3);
  const int clocks_into_frame = clock - tia.clock_when_frame_started;
  // A frame with no VSYNC ends after the maximum number of scanlines.
  const bool past_last_line = clocks_into_frame >= (config.max_scanlines + 1) * kClocksPerScanline;
  if (!tia_write_changes_drawing(address)) {
    tia_defer(tia, clock);
    if (address == 0x02) {  // WSYNC: the 6507 halts only on a read cycle
      uint32_t wait_cycles = 0;
      if (last_access_was_read) {
        const uint32_t to_end_of_line =
            76 - ((cycles - uint32_t(tia.clock_when_frame_started / 3)) % 76);
        if (to_end_of_line < 76) wait_cycles = to_end_of_line;
      }
      return {wait_cycles, past_last_line};
    }
  } else {
    const int takes_effect = clock + write_delay(address, clocks_into_frame);
    if (tia_write_changes_nothing(tia, config, address, value)) {
      tia_defer(tia, takes_effect);
      return {0, past_last_line};
    }
    tia_update(tia, frames, takes_effect);
  }
  TiaWriteEffect effect =
      write_register(tia, config, frames, address, value, cycles, clocks_into_frame);
  effect.end_frame = effect.end_frame || past_last_line;
  return effect;
}

}  // namespace cule
