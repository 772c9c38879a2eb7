// The public C++ API of cule.
#pragma once

#include "cule/error.hpp"         // IWYU pragma: export
#include "cule/flat_machine.hpp"  // IWYU pragma: export
