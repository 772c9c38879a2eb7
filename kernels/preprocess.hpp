// Observation preprocessing: palette frames to grayscale or RGB, the maximum
// of the last two frames, area resizing and frame stacking, written straight
// into an environment's slot of the observation buffer.
//
//   AreaResize resize{...};                 // taps from area_taps, built once
//   area_resize<1>(resize, gray_frame, out, row, sum);   // 1: grayscale, 3: RGB
//
// The resize is OpenCV's INTER_AREA for shrinking (what Gymnasium's and
// ale-py's Atari preprocessing use): each output pixel is the mean of the
// source area it covers, source pixels weighted by the fraction of them
// inside it; the sum is taken in float, rows first, and rounded to nearest,
// ties to even. Where both scales are whole numbers OpenCV averages whole
// blocks instead: 2 x 2 blocks as (sum + 2) / 4, others as sum / area
// rounded to nearest, ties to even.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/hd.hpp"

namespace cule {

//! One source pixel's share of one output pixel along an axis.
struct AreaTap {
  uint16_t src;
  uint16_t dst;
  float weight;
};

//! The taps of both axes and the sizes. The y taps are sorted by dst, then
//! src; the x taps come `x_span` to an output pixel (x_count = dst_width x
//! x_span), consecutive source pixels padded with zero weights (see
//! area_taps_padded), so each output pixel's sum is a fixed-length loop.
struct AreaResize {
  const AreaTap* x_taps;
  const AreaTap* y_taps;
  uint16_t x_count, y_count;
  uint16_t src_width, src_height;
  uint16_t dst_width, dst_height;
  uint16_t x_span;
};

//! The whole-number scale from `src` to `dst` pixels, or 0.
CULE_HD inline int whole_scale(int src, int dst) { return src % dst == 0 ? src / dst : 0; }

//! Upper bound on the taps of a shrink from `src` to `dst` pixels.
constexpr int area_taps_bound(int src, int dst) { return src + dst; }

//! Upper bound on the taps of one output pixel of that shrink.
CULE_HD constexpr int area_span_bound(int src, int dst) { return src / dst + 2; }

//! Writes the taps of output pixel `d` of a shrink from `src` pixels to
//! `dst` (dst <= src) into `taps`, in src order, and returns how many.
CULE_HD inline int area_taps_of(int src, int dst, int d, AreaTap* taps) {
  const double scale = double(src) / dst;
  const double from = d * scale, to = from + scale;
  const double cell = scale < src - from ? scale : src - from;
  int first = int(from);
  if (first < from) ++first;  // ceil
  int last = int(to);         // floor
  if (last > src - 1) last = src - 1;
  if (first > last) first = last;
  int count = 0;
  if (first - from > 1e-3) {
    taps[count++] = {uint16_t(first - 1), uint16_t(d), float((first - from) / cell)};
  }
  for (int s = first; s < last; ++s) taps[count++] = {uint16_t(s), uint16_t(d), float(1.0 / cell)};
  if (to - last > 1e-3) {
    const double part = to - last < 1.0 ? to - last : 1.0;
    taps[count++] = {uint16_t(last), uint16_t(d), float((part < cell ? part : cell) / cell)};
  }
  return count;
}

//! Fills `taps` (room for area_taps_bound) for shrinking `src` pixels to
//! `dst` (dst <= src), sorted by dst, and returns how many it wrote.
CULE_HD inline int area_taps(int src, int dst, AreaTap* taps) {
  int count = 0;
  for (int d = 0; d < dst; ++d) count += area_taps_of(src, dst, d, taps + count);
  return count;
}

//! Fills `taps` (room for dst x area_span_bound) with the same taps laid
//! out `span` to an output pixel, and returns span. Each output pixel's
//! taps are a window of `span` consecutive source pixels inside the row:
//! its own taps, which are consecutive, with zero-weight taps before them
//! where the row's end pushes the window left, and after them otherwise. A zero-weight tap adds 0 x
//! pixel = +0 to a non-negative sum, which leaves it unchanged, so the sums are those of area_taps.
CULE_HD inline int area_taps_padded(int src, int dst, AreaTap* taps) {
  const int bound = area_span_bound(src, dst);
  int span = 0;
  for (int d = 0; d < dst; ++d) {
    const int count = area_taps_of(src, dst, d, taps + d * bound);
    span = count > span ? count : span;
  }
  for (int d = 0; d < dst; ++d) {  // close up from stride `bound` to `span`
    AreaTap* const window = taps + d * span;
    const int count = area_taps_of(src, dst, d, window);
    const int first = window[0].src;
    const int start = first < src - span ? first : src - span;
    const int before = first - start;
    for (int k = count - 1; k >= 0; --k) window[before + k] = window[k];
    for (int k = 0; k < span; ++k) {
      if (k < before || k >= before + count) window[k] = {uint16_t(start + k), uint16_t(d), 0.0f};
    }
  }
  return span;
}

//! Rounds to the nearest integer, ties to even, and clamps to 0-255. Adding
//! and taking away 1.5 x 2^23 rounds any float in [-2^22, 2^22] to an integer
//! in the current rounding mode (nearest, ties to even, on host and device);
//! unlike rintf it is plain arithmetic, and with the clamp on the integer
//! (the same result, rounding being monotonic) the host compiler vectorizes
//! it.
CULE_HD inline uint8_t saturate_u8(float v) {
  constexpr float kRound = 12582912.0f;  // 1.5 x 2^23
  int32_t rounded = int32_t((v + kRound) - kRound);
  rounded = rounded > 0 ? rounded : 0;
  rounded = rounded < 255 ? rounded : 255;
  return uint8_t(rounded);
}

//! out[i] = saturate_u8(sum[i]) for i in [0, n).
CULE_HD inline void saturate_row(const float* __restrict__ sum, uint8_t* __restrict__ out, int n) {
  for (int i = 0; i < n; ++i) out[i] = saturate_u8(sum[i]);
}

//! Whether bytes [0, n) of a and b are equal (compared 8 at a time).
CULE_HD inline bool same_bytes(const uint8_t* a, const uint8_t* b, int n) {
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

//! The horizontal sums of one source row (`line`, src_width pixels of
//! Channels values, bytes or floats): output pixel d's taps into
//! row[d * Channels + c], each sum built in a register in the order (and so
//! with the roundings) of adding its taps one by one to zero. A window's
//! taps are consecutive pixels (area_taps_padded), so only its first source
//! is looked up. `Span` is x_span fixed at compile time, or 0.
template <int Channels, int Span = 0, class Pixel>
CULE_HD inline void area_row_sums(const AreaResize& r, const Pixel* line, float* row) {
  const int span = Span ? Span : r.x_span;
  for (int d = 0; d < r.dst_width; ++d) {
    const AreaTap* const taps = r.x_taps + d * span;
    const Pixel* const window = line + taps[0].src * Channels;
    float acc[Channels] = {};
    for (int k = 0; k < span; ++k) {
      for (int c = 0; c < Channels; ++c) acc[c] += taps[k].weight * float(window[k * Channels + c]);
    }
    for (int c = 0; c < Channels; ++c) row[d * Channels + c] = acc[c];
  }
}

//! The widest source row area_row_sums_of_line converts on the host.
constexpr int kAreaHostMaxWidth = 160;

//! area_row_sums of a row of bytes. The host converts the row to float once
//! and fixes the commonest spans at compile time (the same products and
//! sums); the device reads the bytes.
template <int Channels>
CULE_HD inline void area_row_sums_of_line(const AreaResize& r, const uint8_t* line, float* row) {
#if !defined(__CUDA_ARCH__)
  if (r.src_width <= kAreaHostMaxWidth) {
    float pixels[kAreaHostMaxWidth * Channels];
    for (int p = 0; p < r.src_width * Channels; ++p) pixels[p] = float(line[p]);
    switch (r.x_span) {
      case 2: area_row_sums<Channels, 2>(r, pixels, row); return;
      case 3: area_row_sums<Channels, 3>(r, pixels, row); return;
      case 4: area_row_sums<Channels, 4>(r, pixels, row); return;
      default: area_row_sums<Channels>(r, pixels, row); return;
    }
  }
#endif
  area_row_sums<Channels>(r, line, row);
}

//! Shrinks a `Channels`-colour image (src_height rows of src_width pixels,
//! `src` row after row) into `out` (dst_height x dst_width x Channels).
//! `row` and `sum` are scratch of dst_width * Channels floats each.
template <int Channels>
CULE_HD void area_resize(const AreaResize& r, const uint8_t* src, uint8_t* out, float* row,
                         float* sum) {
  const int width = r.dst_width * Channels;
  const int src_stride = r.src_width * Channels;
  const int sx = whole_scale(r.src_width, r.dst_width),
            sy = whole_scale(r.src_height, r.dst_height);
  if (sx && sy) {
    const int area = sx * sy;
    const float inverse = 1.0f / float(area);
    for (int y = 0; y < r.dst_height; ++y) {
      for (int x = 0; x < r.dst_width; ++x) {
        for (int c = 0; c < Channels; ++c) {
          int total = 0;
          for (int j = 0; j < sy; ++j) {
            const uint8_t* line = src + (y * sy + j) * src_stride + x * sx * Channels + c;
            for (int i = 0; i < sx; ++i) total += line[i * Channels];
          }
          out[(y * r.dst_width + x) * Channels + c] =
              area == 4 ? uint8_t((total + 2) >> 2) : saturate_u8(float(total) * inverse);
        }
      }
    }
    return;
  }
  const uint8_t* summed = nullptr;  // the source row whose sums `row` holds
  for (int t = 0; t < r.y_count; ++t) {
    const AreaTap ty = r.y_taps[t];
    const uint8_t* line = src + ty.src * src_stride;
    // A source row on the border of two output rows, or equal to the row
    // summed before it (as runs of Atari scanlines often are), is summed once.
    if (summed != line && !(summed && same_bytes(summed, line, src_stride))) {
      summed = line;
      area_row_sums_of_line<Channels>(r, line, row);
    }
    const bool first = t == 0 || r.y_taps[t - 1].dst != ty.dst;
    if (first) {
      for (int i = 0; i < width; ++i) sum[i] = ty.weight * row[i];
    } else {
      for (int i = 0; i < width; ++i) sum[i] = sum[i] + ty.weight * row[i];
    }
    const bool last = t + 1 == r.y_count || r.y_taps[t + 1].dst != ty.dst;
    if (last) saturate_row(sum, out + ty.dst * width, width);
  }
}

//! Moves a frame stack one frame on: frames 1..n-1 become 0..n-2, leaving the
//! last frame (`frame_bytes` bytes) to be written.
CULE_HD inline void stack_shift(uint8_t* stack, int frames, int frame_bytes) {
  // Frame by frame: neighbouring frames do not overlap.
  for (int f = 0; f + 1 < frames; ++f) {
    memcpy(stack + size_t(f) * frame_bytes, stack + size_t(f + 1) * frame_bytes,
           size_t(frame_bytes));
  }
}

}  // namespace cule
