// Paths to the shared test data (../shared/testdata), fixed at configure time.
#pragma once

#include <string>

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

}  // namespace cule::testing
