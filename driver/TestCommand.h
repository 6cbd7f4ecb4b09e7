// `arrc test FILE|DIR...`: runs the test blocks (TestBlocks.h) of .arr files
// on the default device, one line per case, then "N passed, N failed"; exit
// status 1 when a case failed (or none ran), 2 on a usage error.
#pragma once

#include "Pipeline.h"

#include <string>
#include <vector>

namespace arrc::driver {

struct TestOptions {
  CompileOptions compile;            // -I, --no-stdlib, -Werror (input is set per file)
  std::vector<std::string> paths;    // files, or directories searched recursively for *.arr
  std::vector<std::string> exclude;  // --exclude TAG: skip blocks with this tag
  std::string entry;                 // -e ENTRY: only this export's cases
  int jobs = 0;                      // -j: files tested at once (0: the number of CPUs)
  double timeout = 600;              // --timeout: seconds per file
  int ranks = 0;                     // --ranks N: distributed overloads under mpirun
};

int testCommand(const TestOptions &options);

} // namespace arrc::driver
