// The public C++ API of cule.
#pragma once

#include "cule/async_vec_env.hpp"     // IWYU pragma: export
#include "cule/cartridge_detect.hpp"  // IWYU pragma: export
#include "cule/console.hpp"           // IWYU pragma: export
#include "cule/env_config.hpp"        // IWYU pragma: export
#include "cule/error.hpp"             // IWYU pragma: export
#include "cule/flat_machine.hpp"      // IWYU pragma: export
#include "cule/rom.hpp"               // IWYU pragma: export
#include "cule/vec_env.hpp"           // IWYU pragma: export
