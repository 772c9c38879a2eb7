#include "cule/rom.hpp"

#include <fstream>
#include <iterator>

#include "cule/cartridge_detect.hpp"
#include "cule/error.hpp"
#include "cule/game_rules.hpp"
#include "cule/md5.hpp"

namespace cule {
namespace {

// "cule-game:<id>" and a NUL, 32 bytes before the end of the image.
constexpr char kSignature[] = "cule-game:";
constexpr size_t kSignatureOffsetFromEnd = 32;
constexpr size_t kSignatureBytes = 16;

}  // namespace

std::string project_game_signature(const uint8_t* data, size_t size) {
  if (size < kSignatureOffsetFromEnd) return {};
  const char* text = reinterpret_cast<const char*>(data + size - kSignatureOffsetFromEnd);
  const size_t prefix = sizeof(kSignature) - 1;
  if (std::string(text, prefix) != kSignature) return {};
  std::string id;
  for (size_t i = prefix; i < kSignatureBytes && text[i] != '\0'; ++i) id += text[i];
  return is_project_game(id) ? id : std::string();
}

Rom Rom::load(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw FileError("path: cannot open ROM file '" + path + "' for reading");
  const std::vector<uint8_t> data((std::istreambuf_iterator<char>(file)),
                                  std::istreambuf_iterator<char>());
  std::string name = path;
  const size_t slash = name.find_last_of('/');
  if (slash != std::string::npos) name = name.substr(slash + 1);
  const size_t dot = name.find_last_of('.');
  if (dot != std::string::npos && dot > 0) name = name.substr(0, dot);
  return from_bytes(data.data(), data.size(), name);
}

Rom Rom::from_bytes(const uint8_t* data, size_t size, const std::string& name) {
  if (size == 0) throw Error("rom: '" + name + "' is empty; expected a 2600 cartridge image");
  Rom rom;
  rom.image_.assign(data, data + size);
  rom.md5_ = md5_hex(data, size);
  rom.name_ = name;
  if (const GameProperties* known = find_game_properties(rom.md5_.c_str())) {
    rom.properties_ = *known;
    rom.known_ = known->in_database;
    rom.name_ = known->rom_id;
  } else {
    rom.properties_ = default_game_properties();
    // The project's cartridges sign themselves (roms/*.asm): their md5
    // depends on the assembler, the signature does not.
    const std::string project = project_game_signature(data, size);
    if (!project.empty()) rom.name_ = project;
  }
  try {
    rom.mapper_ = select_mapper(data, size, rom.md5_, rom.properties_.cartridge_type);
  } catch (const Error& error) {
    throw Error("rom: '" + name + "' (" + std::to_string(size) + " bytes): " + error.what());
  }
  return rom;
}

}  // namespace cule
