#include "cule/cartridge_detect.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>

#include "cule/error.hpp"

namespace cule {
namespace {

struct MapperName {
  Mapper mapper;
  const char* name;
};

constexpr MapperName kMapperNames[] = {
    {Mapper::k2K, "2K"},     {Mapper::k4K, "4K"},
    {Mapper::kF8, "F8"},     {Mapper::kF8Swapped, "F8 swapped"},
    {Mapper::kF8SC, "F8SC"}, {Mapper::kF6, "F6"},
    {Mapper::kF6SC, "F6SC"}, {Mapper::kF4, "F4"},
    {Mapper::kF4SC, "F4SC"}, {Mapper::kE0, "E0"},
    {Mapper::kFE, "FE"},     {Mapper::kDPC, "DPC"},
    {Mapper::k3F, "3F"},     {Mapper::kE7, "E7"},
    {Mapper::kFASC, "FASC"}, {Mapper::kUA, "UA"},
};

// ALE types that cule does not emulate.
constexpr const char* kUnsupportedTypes[] = {"0840", "3E", "4A50", "AR", "CV", "MB", "MC"};

std::string supported_list() {
  std::string list;
  for (const MapperName& entry : kMapperNames) {
    if (!list.empty()) list += ", ";
    list += entry.name;
  }
  return list;
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

// ALE's searchForBytes: `signature` at least `min_hits` times, not
// overlapping, never starting at the last possible position.
bool has_signature(const uint8_t* image, size_t size, const uint8_t* signature, size_t length,
                   size_t min_hits) {
  if (length > size) return false;
  size_t hits = 0;
  for (size_t i = 0; i < size - length; ++i) {
    if (std::memcmp(image + i, signature, length) == 0) {
      ++hits;
      i += length;
    }
    if (hits >= min_hits) break;
  }
  return hits >= min_hits;
}

template <size_t kLength>
bool has_any(const uint8_t* image, size_t size, const uint8_t (*signatures)[kLength],
             size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (has_signature(image, size, signatures[i], kLength, 1)) return true;
  }
  return false;
}

// SuperChip: the first 256 bytes of every 4 KiB bank (RAM ports) hold one value.
bool probably_sc(const uint8_t* image, size_t size) {
  for (size_t bank = 0; bank < size / 4096; ++bank) {
    const uint8_t* base = image + bank * 4096;
    for (size_t i = 0; i < 256; ++i) {
      if (base[i] != base[0]) return false;
    }
  }
  return true;
}

bool probably_3f(const uint8_t* image, size_t size) {
  const uint8_t sta_3f[] = {0x85, 0x3F};
  return has_signature(image, size, sta_3f, 2, 2);
}

bool probably_3e(const uint8_t* image, size_t size) {
  const uint8_t sta_3e_lda[] = {0x85, 0x3E, 0xA9, 0x00};
  return has_signature(image, size, sta_3e_lda, 4, 1);
}

bool probably_e0(const uint8_t* image, size_t size) {
  const uint8_t signatures[][3] = {
      {0x8D, 0xE0, 0x1F},  // STA $1FE0
      {0x8D, 0xE0, 0x5F},  // STA $5FE0
      {0x8D, 0xE9, 0xFF},  // STA $FFE9
      {0xAD, 0xE9, 0xFF},  // LDA $FFE9
      {0xAD, 0xED, 0xFF},  // LDA $FFED
      {0xAD, 0xF3, 0xBF},  // LDA $BFF3
  };
  return has_any(image, size, signatures, 6);
}

// E7: $3800-$39FF (the 256-byte RAM ports in the fixed slice) hold one value,
// and the 32 bytes on either side are not all that value.
bool probably_e7(const uint8_t* image, size_t size) {
  if (size < 0x3A00 + 32) return false;
  const uint8_t first = image[0x3800];
  for (size_t i = 0x3800; i < 0x3A00; ++i) {
    if (image[i] != first) return false;
  }
  size_t differing = 0;
  for (size_t i = 0x3800 - 32; i < 0x3800; ++i) differing += image[i] != first;
  for (size_t i = 0x3A00; i < 0x3A00 + 32; ++i) differing += image[i] != first;
  return differing > 0;
}

bool probably_ua(const uint8_t* image, size_t size) {
  const uint8_t sta_240[] = {0x8D, 0x40, 0x02};
  return has_signature(image, size, sta_240, 3, 1);
}

bool probably_cv(const uint8_t* image, size_t size) {
  const uint8_t signatures[][3] = {
      {0x9D, 0xFF, 0xF3},  // STA $F3FF,X
      {0x99, 0x00, 0xF4},  // STA $F400,Y
  };
  return has_any(image, size, signatures, 2);
}

bool probably_fe(const uint8_t* image, size_t size) {
  const uint8_t signatures[][5] = {
      {0x20, 0x00, 0xD0, 0xC6, 0xC5},  // JSR $D000; DEC $C5
      {0x20, 0xC3, 0xF8, 0xA5, 0x82},  // JSR $F8C3; LDA $82
      {0xD0, 0xFB, 0x20, 0x73, 0xFE},  // BNE *-3; JSR $FE73
      {0x20, 0x00, 0xF0, 0x84, 0xD6},  // JSR $F000; STY $D6
  };
  return has_any(image, size, signatures, 4);
}

}  // namespace

const char* mapper_name(Mapper mapper) {
  for (const MapperName& entry : kMapperNames) {
    if (entry.mapper == mapper) return entry.name;
  }
  return "?";
}

std::string detect_ale_type(const uint8_t* image, size_t size) {
  if (size != 0 && size % 8448 == 0) return "AR";
  if (size == 2048 || (size == 4096 && std::memcmp(image, image + 2048, 2048) == 0)) {
    return probably_cv(image, size) ? "CV" : "2K";
  }
  if (size == 4096) return probably_cv(image, size) ? "CV" : "4K";
  if (size == 8192) {
    if (probably_sc(image, size)) return "F8SC";
    if (std::memcmp(image, image + 4096, 4096) == 0) return "4K";
    if (probably_e0(image, size)) return "E0";
    if (probably_3e(image, size)) return "3E";
    if (probably_3f(image, size)) return "3F";
    if (probably_ua(image, size)) return "UA";
    if (probably_fe(image, size)) return "FE";
    return "F8";
  }
  if (size == 10240 || size == 10495 || size == 10496) return "DPC";  // Pitfall II
  if (size == 12288) return "FASC";  // ALE assumes every 12 KiB image is CBS RAM Plus
  if (size == 16384) {
    if (probably_sc(image, size)) return "F6SC";
    if (probably_e7(image, size)) return "E7";
    if (probably_3e(image, size)) return "3E";
    if (probably_3f(image, size)) return "3F";
    return "F6";
  }
  if (size == 32768) {
    if (probably_sc(image, size)) return "F4SC";
    if (probably_3e(image, size)) return "3E";
    if (probably_3f(image, size)) return "3F";
    return "F4";
  }
  if (probably_3e(image, size)) return "3E";
  if (probably_3f(image, size)) return "3F";
  if (size == 65536) return "MB";
  if (size == 131072) return "MC";
  return "";
}

Mapper detect_mapper(const uint8_t* image, size_t size) {
  if (image == nullptr && size != 0)
    throw Error("rom image: got a null pointer for " + std::to_string(size) + " bytes");
  const std::string type = detect_ale_type(image, size);
  if (type.empty()) {
    throw Error("rom size: got " + std::to_string(size) +
                " bytes, which ALE recognises as no cartridge type; expected 2048, 4096, 8192, "
                "10240/10495/10496 (DPC), 12288 (FASC), 16384 or 32768 bytes, or a 3F image "
                "(two 'STA $3F')");
  }
  const Mapper mapper = mapper_from_ale_type(type);
  check_rom_size(mapper, size);
  return mapper;
}

Mapper mapper_from_ale_type(const std::string& type) {
  const std::string key = upper(type);
  for (const MapperName& entry : kMapperNames) {
    if (key == upper(entry.name)) return entry.mapper;
  }
  for (const char* unsupported : kUnsupportedTypes) {
    if (key == unsupported) {
      throw Error("cartridge type: got \"" + type +
                  "\", an ALE scheme cule does not emulate; expected one of " + supported_list());
    }
  }
  if (key == "AUTO-DETECT" || key.empty()) {
    throw Error("cartridge type: got \"" + type + "\", which names no scheme; expected one of " +
                supported_list() + " (use detect_mapper or select_mapper to autodetect)");
  }
  throw Error("cartridge type: got \"" + type + "\", which is not an ALE cartridge type; " +
              "expected one of " + supported_list());
}

bool ale_forces_f8_swapped(const std::string& md5) {
  return md5 == "bc24440b59092559a1ec26055fd1270e" || md5 == "75ee371ccfc4f43e7d9b8f24e1266b55";
}

Mapper select_mapper(const uint8_t* image, size_t size, const std::string& md5,
                     const std::string& type) {
  Mapper mapper;
  if (ale_forces_f8_swapped(md5)) {
    mapper = Mapper::kF8Swapped;
  } else if (type.empty() || upper(type) == "AUTO-DETECT") {
    return detect_mapper(image, size);
  } else {
    mapper = mapper_from_ale_type(type);
  }
  check_rom_size(mapper, size);
  return mapper;
}

size_t mapper_rom_size(Mapper mapper) {
  switch (mapper) {
    case Mapper::k2K:
    case Mapper::k3F: return 2048;
    case Mapper::k4K: return 4096;
    case Mapper::kF8:
    case Mapper::kF8Swapped:
    case Mapper::kF8SC:
    case Mapper::kE0:
    case Mapper::kFE:
    case Mapper::kUA: return 8192;
    case Mapper::kDPC: return 8192 + 2048;
    case Mapper::kFASC: return 12288;
    case Mapper::kF6:
    case Mapper::kF6SC:
    case Mapper::kE7: return 16384;
    case Mapper::kF4:
    case Mapper::kF4SC: return 32768;
  }
  return 0;
}

void check_rom_size(Mapper mapper, size_t size) {
  const size_t needed = mapper_rom_size(mapper);
  if (size < needed) {
    throw Error("rom size: got " + std::to_string(size) + " bytes for cartridge type " +
                mapper_name(mapper) + "; expected at least " + std::to_string(needed) + " bytes");
  }
  if (size > std::numeric_limits<uint32_t>::max()) {
    throw Error("rom size: got " + std::to_string(size) + " bytes; expected at most " +
                std::to_string(std::numeric_limits<uint32_t>::max()));
  }
}

}  // namespace cule
