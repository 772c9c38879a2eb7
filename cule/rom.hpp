// A cartridge image with what ALE knows about it: md5, properties, mapper.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cule/game_properties.hpp"
#include "kernels/cartridge.hpp"
#include "kernels/tia.hpp"

namespace cule {

//! The id of the project's own game (roms/*.asm) that the image signs itself
//! as ("cule-game:<id>" 32 bytes before its end), or "" when it is none.
std::string project_game_signature(const uint8_t* data, size_t size);

class Rom {
 public:
  //! Reads a ROM file. Throws cule::FileError when it cannot be read and
  //! cule::Error when the image is not a cartridge cule can run.
  static Rom load(const std::string& path);

  //! A ROM from bytes in memory; `name` is used in messages.
  static Rom from_bytes(const uint8_t* data, size_t size, const std::string& name = "rom");

  const std::vector<uint8_t>& image() const { return image_; }
  const std::string& md5() const { return md5_; }
  //! ale-py's id of the game ("pong"), or the name given when unknown.
  const std::string& name() const { return name_; }
  Mapper mapper() const { return mapper_; }
  const GameProperties& properties() const { return properties_; }
  //! Whether the game is in ALE's properties database.
  bool known() const { return known_; }

 private:
  std::vector<uint8_t> image_;
  std::string md5_;
  std::string name_;
  Mapper mapper_ = Mapper::k4K;
  GameProperties properties_{};
  bool known_ = false;
};

}  // namespace cule
