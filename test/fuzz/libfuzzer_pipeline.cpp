// libFuzzer entry: the whole compiler (parse, type check, lowering, passes,
// OpenCL C and C++ generation) on arbitrary bytes as the main file of a
// program with the stdlib (test/fuzz/pipeline.h). An internal compiler error
// (an exception escaping a stage) aborts, so libFuzzer keeps the input;
// ARRC_FUZZ_LENIENT=1 ignores them instead. docs/reliability.md has the commands.
#include "pipeline.h"

#include <cstddef>
#include <cstdint>
#include <iostream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const bool lenient = [] {
    const char *e = std::getenv("ARRC_FUZZ_LENIENT");
    return e && *e && std::string(e) != "0";
  }();
  std::string text(reinterpret_cast<const char *>(data), size);
  arrc::fuzz::PipelineResult r = arrc::fuzz::runPipeline(text, ARRC_FUZZ_STDLIB_DIR);
  if (!r.internalError.empty() && !lenient) {
    std::cerr << "internal compiler error in " << arrc::fuzz::stageName(r.reached) << ": " << r.internalError
              << "\n";
    std::abort();
  }
  return 0;
}
