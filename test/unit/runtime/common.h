#pragma once
#include <arrc/runtime.h>

#include <string>

namespace arrc_test {
extern std::string cache_dir;
// One context per test process (programs are built once and reused).
arrc::Context& ctx();
}  // namespace arrc_test
