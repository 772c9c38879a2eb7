// Which bank-switching scheme a ROM image uses, decided as ALE decides it:
// the two md5s ALE always runs as "F8 swapped", then the cartridge type the
// user (or ALE's properties) named, else ALE's autodetection from the image's
// size and content. Host only; throws cule::Error for what cule cannot run.
//
// For every ROM ale-py ships, ALE's property table names no type, so ALE
// autodetects: detect_mapper(image, size) is the mapper ALE runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/cartridge.hpp"

namespace cule {

//! ALE's type string for `mapper`: "2K", "F8", "F8 swapped", "FASC", ...
const char* mapper_name(Mapper mapper);

//! ALE's autodetection (Cartridge::autodetectType): the type string it picks,
//! schemes cule does not support included ("3E", "AR", "CV", "MB", "MC"). An
//! image ALE cannot place gives "" (ALE reports "Unrecognized cartridge").
std::string detect_ale_type(const uint8_t* image, size_t size);

//! detect_ale_type as a Mapper. Throws cule::Error when ALE recognises no
//! scheme, or recognises one that cule does not support.
Mapper detect_mapper(const uint8_t* image, size_t size);

//! The Mapper for an ALE type string, compared without regard to case (ALE
//! upper-cases the type it reads from properties and settings). Throws
//! cule::Error for "AUTO-DETECT", unsupported ALE types and unknown strings.
Mapper mapper_from_ale_type(const std::string& type);

//! Whether ALE runs the ROM with this md5 (32 lowercase hex digits) as
//! "F8 swapped" whatever its properties say. True for two ROMs:
//! bc24440b59092559a1ec26055fd1270e (Private Eye [b1]) and
//! 75ee371ccfc4f43e7d9b8f24e1266b55 (Snow White prototype).
bool ale_forces_f8_swapped(const std::string& md5);

//! ALE's whole choice (Cartridge::create): the md5 override, else `type`
//! unless it is "" or "AUTO-DETECT", else autodetection. The result is checked
//! against the image size (check_rom_size).
Mapper select_mapper(const uint8_t* image, size_t size, const std::string& md5,
                     const std::string& type = "AUTO-DETECT");

//! The fewest bytes an image needs for `mapper`: what ALE copies from it
//! (2K 2048, F8 8192, DPC 10240 = 8 KiB program + 2 KiB display, FASC 12288,
//! 3F one 2 KiB bank, ...). Bytes past it are ignored, as in ALE, except by 3F,
//! which banks over the whole image.
size_t mapper_rom_size(Mapper mapper);

//! Throws cule::Error unless an image of `size` bytes can run as `mapper`.
void check_rom_size(Mapper mapper, size_t size);

}  // namespace cule
