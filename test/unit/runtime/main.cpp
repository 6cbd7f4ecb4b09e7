// Test driver: each test process gets its own fresh disk cache directory
// (ARRC_CACHE_DIR), so the cache tests start cold and nothing leaks between
// runs; it is removed at exit.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "common.h"

namespace arrc_test {
std::string cache_dir;
arrc::Context& ctx() {
  static arrc::Context c;
  return c;
}
}  // namespace arrc_test

int main(int argc, char** argv) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "arrc-rt-test-XXXXXX").string();
  char* d = mkdtemp(tmpl.data());
  if (!d) return 2;
  arrc_test::cache_dir = d;
  setenv("ARRC_CACHE_DIR", d, 1);
  unsetenv("ARRC_DEVICE");
  doctest::Context dc;
  dc.applyCommandLine(argc, argv);
  int rc = dc.run();
  std::error_code ec;
  std::filesystem::remove_all(arrc_test::cache_dir, ec);
  return rc;
}
