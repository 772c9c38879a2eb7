// Observation preprocessing: palette frames to grayscale or RGB, the maximum
// of the last two frames, area resizing and frame stacking, written straight
// into an environment's slot of the observation buffer.
//
//   AreaResize resize = ...;                       // taps built on the host
//   const Palette& palette = palette_for(pal);
//   area_resize(resize, 1, out, row, sum, [&](int y, int x, int) {
//     const int i = y * kScreenWidth + x;
//     return max(palette.gray[last[i]], palette.gray[previous[i]]);
//   });
//
// The resize is OpenCV's INTER_AREA for shrinking (what Gymnasium's and
// ale-py's Atari preprocessing use): each output pixel is the mean of the
// source area it covers, source pixels weighted by the fraction of them
// inside it; the sum is taken in float, rows first, and rounded to nearest,
// ties to even. Where both scales are whole numbers OpenCV averages whole
// blocks instead: 2 x 2 blocks as (sum + 2) / 4, others as sum / area
// rounded to nearest, ties to even.
#pragma once

#include <cstdint>

#include "kernels/hd.hpp"

namespace cule {

//! One source pixel's share of one output pixel along an axis.
struct AreaTap {
  uint16_t src;
  uint16_t dst;
  float weight;
};

//! The taps of both axes (sorted by dst, then src) and the sizes.
struct AreaResize {
  const AreaTap* x_taps;
  const AreaTap* y_taps;
  uint16_t x_count, y_count;
  uint16_t src_width, src_height;
  uint16_t dst_width, dst_height;
};

//! The whole-number scale from `src` to `dst` pixels, or 0.
CULE_HD inline int whole_scale(int src, int dst) { return src % dst == 0 ? src / dst : 0; }

//! Upper bound on the taps of a shrink from `src` to `dst` pixels.
constexpr int area_taps_bound(int src, int dst) { return src + dst; }

//! Fills `taps` (room for area_taps_bound) for shrinking `src` pixels to
//! `dst` (dst <= src) and returns how many it wrote.
CULE_HD inline int area_taps(int src, int dst, AreaTap* taps) {
  const double scale = double(src) / dst;
  int count = 0;
  for (int d = 0; d < dst; ++d) {
    const double from = d * scale, to = from + scale;
    const double cell = scale < src - from ? scale : src - from;
    int first = int(from);
    if (first < from) ++first;  // ceil
    int last = int(to);         // floor
    if (last > src - 1) last = src - 1;
    if (first > last) first = last;
    if (first - from > 1e-3) {
      taps[count++] = {uint16_t(first - 1), uint16_t(d), float((first - from) / cell)};
    }
    for (int s = first; s < last; ++s)
      taps[count++] = {uint16_t(s), uint16_t(d), float(1.0 / cell)};
    if (to - last > 1e-3) {
      const double part = to - last < 1.0 ? to - last : 1.0;
      taps[count++] = {uint16_t(last), uint16_t(d), float((part < cell ? part : cell) / cell)};
    }
  }
  return count;
}

//! Rounds to the nearest integer, ties to even, and clamps to 0-255.
CULE_HD inline uint8_t saturate_u8(float v) {
  const float r = rintf(v);
  return uint8_t(r < 0.0f ? 0.0f : (r > 255.0f ? 255.0f : r));
}

//! Shrinks the image `pixel(y, x, channel)` into `out` (dst_height x
//! dst_width x channels). `row` and `sum` are scratch of dst_width *
//! channels floats each.
template <class Pixel>
CULE_HD void area_resize(const AreaResize& r, int channels, uint8_t* out, float* row, float* sum,
                         Pixel pixel) {
  const int width = r.dst_width * channels;
  const int sx = whole_scale(r.src_width, r.dst_width),
            sy = whole_scale(r.src_height, r.dst_height);
  if (sx && sy) {
    const int area = sx * sy;
    const float inverse = 1.0f / float(area);
    for (int y = 0; y < r.dst_height; ++y) {
      for (int x = 0; x < r.dst_width; ++x) {
        for (int c = 0; c < channels; ++c) {
          int total = 0;
          for (int j = 0; j < sy; ++j) {
            for (int i = 0; i < sx; ++i) total += pixel(y * sy + j, x * sx + i, c);
          }
          out[(y * r.dst_width + x) * channels + c] =
              area == 4 ? uint8_t((total + 2) >> 2) : saturate_u8(float(total) * inverse);
        }
      }
    }
    return;
  }
  for (int t = 0; t < r.y_count; ++t) {
    const AreaTap ty = r.y_taps[t];
    // A source row on the border of two output rows is summed once.
    if (t == 0 || r.y_taps[t - 1].src != ty.src) {
      for (int i = 0; i < width; ++i) row[i] = 0.0f;
      for (int k = 0; k < r.x_count; ++k) {
        const AreaTap tx = r.x_taps[k];
        for (int c = 0; c < channels; ++c) {
          row[tx.dst * channels + c] += tx.weight * float(pixel(ty.src, tx.src, c));
        }
      }
    }
    const bool first = t == 0 || r.y_taps[t - 1].dst != ty.dst;
    for (int i = 0; i < width; ++i)
      sum[i] = first ? ty.weight * row[i] : sum[i] + ty.weight * row[i];
    const bool last = t + 1 == r.y_count || r.y_taps[t + 1].dst != ty.dst;
    if (last) {
      uint8_t* line = out + ty.dst * width;
      for (int i = 0; i < width; ++i) line[i] = saturate_u8(sum[i]);
    }
  }
}

//! Copies the image `pixel(y, x, channel)` unscaled into `out`.
template <class Pixel>
CULE_HD void copy_image(int height, int width, int channels, uint8_t* out, Pixel pixel) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c) *out++ = pixel(y, x, c);
    }
  }
}

//! Moves a frame stack one frame on: frames 1..n-1 become 0..n-2, leaving the
//! last frame (`frame_bytes` bytes) to be written.
CULE_HD inline void stack_shift(uint8_t* stack, int frames, int frame_bytes) {
  for (int i = 0; i < (frames - 1) * frame_bytes; ++i) stack[i] = stack[i + frame_bytes];
}

}  // namespace cule
