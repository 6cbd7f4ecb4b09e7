// libFuzzer entry: parse arbitrary bytes as an Arr file.
#include "arrc/Frontend.h"

#include <cstddef>
#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  arrc::SourceManager sm;
  std::ostringstream sink;
  arrc::Diagnostics diag(sm, sink);
  int file = sm.add("fuzz.arr", std::string(reinterpret_cast<const char *>(data), size));
  arrc::Module m;
  arrc::parseSource(sm, diag, file, m);
  return 0;
}
