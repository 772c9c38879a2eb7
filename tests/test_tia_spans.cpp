// The TIA's span drawing (words of pixel bits), with the host's pixel writes
// and the device's, against a pixel-by-pixel reference written from the
// Stella Programmer's Guide's object rules and ALE's priority and collision
// logic, over random register settings.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>

#include "kernels/tia.hpp"

namespace cule {
namespace {

// Copy offsets by NUSIZ number (Stella Programmer's Guide, NUSIZ0/1): one,
// two close, two medium, three close, two wide, double, three medium, quad.
constexpr std::array<std::array<int, 3>, 8> kCopies = {{{0, -1, -1},
                                                        {0, 16, -1},
                                                        {0, 32, -1},
                                                        {0, 16, 32},
                                                        {0, 64, -1},
                                                        {0, -1, -1},
                                                        {0, 32, 64},
                                                        {0, -1, -1}}};

// d: the pixel's offset from the object's position, 0-159.
bool player_shows(uint8_t grp, uint8_t nusiz, bool first_copy_hidden, int d) {
  const int number = nusiz & 0x07;
  if (number == 5 || number == 7) {  // one copy, 2 or 4 pixels a bit, one pixel late
    const int scale = number == 5 ? 2 : 4;
    if (first_copy_hidden || d < 1 || d >= 1 + 8 * scale) return false;
    return (grp >> (7 - (d - 1) / scale)) & 1;
  }
  for (int copy : kCopies[number]) {
    if (copy < 0 || (copy == 0 && first_copy_hidden)) continue;
    if (d >= copy && d < copy + 8) return (grp >> (7 - (d - copy))) & 1;
  }
  return false;
}

bool missile_shows(uint8_t number, int width, int d) {
  for (int copy : kCopies[number & 0x07]) {
    if (copy >= 0 && d >= copy && d < copy + width) return true;
  }
  return false;
}

// PF0 bits 4-7, PF1 bits 7-0, PF2 bits 0-7, 4 pixels a bit; the right half
// repeats the left or, reflected, mirrors it.
bool playfield_shows(uint8_t pf0, uint8_t pf1, uint8_t pf2, bool reflect, int x) {
  int q = x / 4;
  if (q >= 20) q = reflect ? 39 - q : q - 20;
  if (q < 4) return (pf0 >> (4 + q)) & 1;
  if (q < 12) return (pf1 >> (7 - (q - 4))) & 1;
  return (pf2 >> (q - 12)) & 1;
}

struct Objects {
  bool p0, m0, p1, m1, bl, pf;
};

// ALE's priority encoder: the colour register a pixel shows (0 background,
// 1 playfield, 2 player 0, 3 player 1).
int colour_register(const Objects& o, bool priority, bool score, bool right_half) {
  int colour = 0;
  if (priority) {
    if (o.p1 || o.m1) colour = 3;
    if (o.p0 || o.m0) colour = 2;
    if (o.bl || o.pf) colour = 1;  // the playfield wins; score mode is ignored
    return colour;
  }
  if (o.bl) colour = 1;
  if (o.pf) colour = score ? (right_half ? 3 : 2) : 1;
  if (o.p1 || o.m1) colour = colour != 2 ? 3 : 2;
  if (o.p0 || o.m0) colour = 2;
  return colour;
}

// The collision latches in CXM0P.. CXPPMM bit order.
uint16_t collisions(const Objects& o) {
  const bool pairs[15] = {o.m0 && o.p1, o.m0 && o.p0, o.m1 && o.p0, o.m1 && o.p1, o.p0 && o.pf,
                          o.p0 && o.bl, o.p1 && o.pf, o.p1 && o.bl, o.m0 && o.pf, o.m0 && o.bl,
                          o.m1 && o.pf, o.m1 && o.bl, o.bl && o.pf, o.p0 && o.p1, o.m0 && o.m1};
  uint16_t latches = 0;
  for (int i = 0; i < 15; ++i) latches |= uint16_t(pairs[i] << i);
  return latches;
}

struct Registers {
  uint8_t pf0, pf1, pf2, ctrlpf, nusiz0, nusiz1, grp0, grp1, m0_pattern;
  bool enam0, enam1, enabl, reflect, p0_hidden, p1_hidden, vblank;
  int posp0, posm0, posp1, posm1, posbl;
  uint8_t colours[4];
};

Tia tia_with(const Registers& r) {
  Tia tia{};
  tia.VBLANK = r.vblank ? 0x02 : 0x00;
  tia.PF = uint32_t(r.pf0 >> 4) | uint32_t(r.pf1) << 4 | uint32_t(r.pf2) << 12;
  tia.CTRLPF = r.ctrlpf;
  tia.playfield_priority_and_score = uint8_t((r.ctrlpf & 0x06) << 5);
  tia.pf_reflect = r.reflect;
  tia.NUSIZ0 = r.nusiz0;
  tia.NUSIZ1 = r.nusiz1;
  tia.current_grp0 = r.grp0;
  tia.current_grp1 = r.grp1;
  tia.p0_first_copy_hidden = r.p0_hidden;
  tia.p1_first_copy_hidden = r.p1_hidden;
  tia.m0_pattern = r.m0_pattern;
  tia.enabled_objects =
      uint8_t((r.grp0 ? kP0Bit : 0) | (r.grp1 ? kP1Bit : 0) | (r.enam0 ? kM0Bit : 0) |
              (r.enam1 ? kM1Bit : 0) | (r.enabl ? kBLBit : 0) | (tia.PF ? kPFBit : 0));
  tia.POSP0 = int16_t(r.posp0);
  tia.POSM0 = int16_t(r.posm0);
  tia.POSP1 = int16_t(r.posp1);
  tia.POSM1 = int16_t(r.posm1);
  tia.POSBL = int16_t(r.posbl);
  for (int i = 0; i < 4; ++i) tia.color[i] = r.colours[i];
  return tia;
}

// Pixel by pixel: what the span [hpos, hpos + count) shows, and its collisions.
uint16_t reference_span(const Registers& r, uint8_t* out, int hpos, int count, bool draw) {
  if (r.vblank) {
    for (int i = 0; draw && i < count; ++i) out[i] = 0;
    return 0;
  }
  uint16_t latches = 0;
  for (int i = 0; i < count; ++i) {
    const int x = hpos + i;
    auto offset = [&](int position) { return ((x - position) % 160 + 160) % 160; };
    const int m0_size = ((r.nusiz0 >> 4) & 3) | (r.m0_pattern == kMissileStretched);
    Objects o;
    o.p0 = player_shows(r.grp0, r.nusiz0, r.p0_hidden, offset(r.posp0));
    o.p1 = player_shows(r.grp1, r.nusiz1, r.p1_hidden, offset(r.posp1));
    o.m0 = r.enam0 && r.m0_pattern != kMissileHidden &&
           missile_shows(r.nusiz0, 1 << m0_size, offset(r.posm0));
    o.m1 = r.enam1 && missile_shows(r.nusiz1, 1 << ((r.nusiz1 >> 4) & 3), offset(r.posm1));
    o.bl = r.enabl && offset(r.posbl) < (1 << ((r.ctrlpf >> 4) & 3));
    o.pf = playfield_shows(r.pf0, r.pf1, r.pf2, r.reflect, x);
    latches |= collisions(o);
    if (draw) out[i] = r.colours[colour_register(o, r.ctrlpf & 0x04, r.ctrlpf & 0x02, x >= 80)];
  }
  return latches;
}

// draw_span leaves out the objects whose extents miss a span: each extent
// must end exactly at the last pixel the reference shows.
TEST(TiaSpans, ObjectExtentsEndAtTheLastPixelShown) {
  auto last_pixel_end = [](auto shows) {
    int end = 0;
    for (int d = 0; d < 160; ++d) {
      if (shows(d)) end = d + 1;
    }
    return end;
  };
  for (uint8_t number = 0; number < 8; ++number) {
    EXPECT_EQ(tia_detail::player_extent(number),
              last_pixel_end([&](int d) { return player_shows(0xFF, number, false, d); }))
        << "player, NUSIZ number " << int(number);
    for (int width = 1; width <= 8; width *= 2) {
      EXPECT_EQ(tia_detail::copies_extent(number, width),
                last_pixel_end([&](int d) { return missile_shows(number, width, d); }))
          << "missile " << width << " wide, NUSIZ number " << int(number);
    }
  }
}

TEST(TiaSpans, MatchPixelByPixelDrawing) {
  std::mt19937 rng(2600);
  auto byte = [&] { return uint8_t(rng()); };
  auto sparse = [&] { return rng() % 4 == 0 ? uint8_t(0) : byte(); };
  auto chance = [&](int percent) { return int(rng() % 100) < percent; };
  for (int trial = 0; trial < 200000; ++trial) {
    Registers r;
    r.pf0 = sparse(), r.pf1 = sparse(), r.pf2 = sparse();
    if (chance(30)) r.pf0 = r.pf1 = r.pf2 = 0;
    r.ctrlpf = byte(), r.nusiz0 = byte(), r.nusiz1 = byte();
    r.grp0 = sparse(), r.grp1 = sparse();
    r.m0_pattern = uint8_t(rng() % 3);
    r.enam0 = chance(50), r.enam1 = chance(50), r.enabl = chance(50), r.reflect = chance(50);
    r.p0_hidden = chance(20), r.p1_hidden = chance(20), r.vblank = chance(3);
    r.posp0 = int(rng() % 160), r.posm0 = int(rng() % 160), r.posp1 = int(rng() % 160);
    r.posm1 = int(rng() % 160), r.posbl = int(rng() % 160);
    for (uint8_t& colour : r.colours) colour = byte();
    const int hpos = chance(30) ? 0 : int(rng() % 160);
    const int count = chance(30) ? 160 - hpos : 1 + int(rng() % (160 - hpos));
    const bool draw = chance(80);

    // The span starts anywhere within a word (the device's writes align).
    const int start = 8 + int(rng() % 4);
    const uint16_t old_latches = uint16_t(rng() & 0x7FFF);
    alignas(8) std::array<uint8_t, 176> expected;
    expected.fill(0xA5);
    const uint16_t latches = reference_span(r, expected.data() + start, hpos, count, draw);

    auto check = [&](auto draw_span, const char* writes) {
      Tia tia = tia_with(r);
      tia.collision = old_latches;
      alignas(8) std::array<uint8_t, 176> drawn;
      drawn.fill(0xA5);
      draw_span(tia, drawn.data() + start, hpos, count, draw);
      ASSERT_EQ(tia.collision, old_latches | latches) << writes << ", trial " << trial;
      for (size_t i = 0; i < drawn.size(); ++i) {
        ASSERT_EQ(drawn[i], expected[i])
            << writes << ", trial " << trial << ", byte " << int(i) - start << " of the span at "
            << hpos << " (" << count << ")";
      }
    };
    // The host's writes, and the device's (tia_detail::PixelWrites).
    check(tia_detail::draw_span<tia_detail::PixelWrites::byte_masks>, "by byte masks");
    if (::testing::Test::HasFatalFailure()) return;
    check(tia_detail::draw_span<tia_detail::PixelWrites::byte_select>, "by byte select");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace cule
