// Paths to the shared test data (../shared/testdata), fixed at configure time.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace cule::testing {

inline std::string testdata_path(const std::string& relative) {
  return std::string(CULE_TESTDATA_DIR) + "/" + relative;
}

// Klaus Dormann's 6502 functional test: load at $0000, start at $0400; every
// check passed when the PC loops at $3469, a failed check loops at its own PC.
constexpr const char* kFunctionalTestImage = "6502/6502_functional_test.bin";
constexpr uint16_t kFunctionalTestStart = 0x0400;
constexpr uint16_t kFunctionalTestSuccess = 0x3469;
constexpr uint64_t kFunctionalTestMaxInstructions = 100'000'000;

// ale-py's ROM folder: $CULE_ALE_ROMS_DIR, else the repository's .venv's;
// empty unless it holds ale-py's ROMs (pong.bin among them).
inline std::filesystem::path ale_roms_dir() {
  namespace fs = std::filesystem;
  std::error_code error;
  auto holds_roms = [&error](const fs::path& dir) { return fs::exists(dir / "pong.bin", error); };
  if (const char* dir = std::getenv("CULE_ALE_ROMS_DIR")) {
    return holds_roms(dir) ? fs::path(dir) : fs::path();
  }
  const fs::path lib = fs::path(__FILE__).parent_path().parent_path() / ".venv" / "lib";
  if (fs::is_directory(lib, error)) {
    for (const fs::directory_entry& python : fs::directory_iterator(lib, error)) {
      const fs::path roms = python.path() / "site-packages" / "ale_py" / "roms";
      if (holds_roms(roms)) return roms;
    }
  }
  return {};
}

// Why a test that needs ale_roms_dir() skips.
constexpr const char* kNoAleRoms = "ale-py ROMs not found: set CULE_ALE_ROMS_DIR to ale_py/roms";

}  // namespace cule::testing
