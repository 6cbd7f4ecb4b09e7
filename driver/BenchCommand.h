// `arrc bench FILE -e ENTRY`: times one export on the default device.
// Inputs come from the `// == bench` blocks of the export (literal `in:` or
// random `gen:` data at `sizes:`), else from its test blocks, or are made
// from its signature at the sizes given with --size (every array axis gets
// the first size). Per input set: the cold first call (kernel build) apart,
// warm-up runs, then timed runs: median, spread, and the throughput where
// the block states `bytes:`. --json writes the same as one JSON object.
#pragma once

#include "Pipeline.h"

#include <string>
#include <vector>

namespace arrc::driver {

struct BenchOptions {
  CompileOptions compile;           // input, -I, --no-stdlib
  std::string entry;                // -e ENTRY ("" = the only export)
  std::vector<std::string> sizes;   // --size NAME=EXPR (overrides `sizes:`)
  int runs = 10;                    // --runs
  int warmup = 3;                   // --warmup
  bool json = false;                // --json
  bool noCache = false;             // --no-cache: the cold call builds from source
  double timeout = 0;               // --timeout: seconds per input set (0: none)
  int ranks = 0;                    // --ranks N: the distributed overload under mpirun
};

int benchCommand(const BenchOptions &options);

} // namespace arrc::driver
