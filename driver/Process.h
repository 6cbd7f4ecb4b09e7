// Child processes of the driver: the programs `arrc run/test/bench` build.
#pragma once

#include <string>
#include <vector>

namespace arrc::driver {

// Runs exe with args, sharing our standard streams; returns its exit status
// (1 with a message when it was killed by a signal).
int execute(const std::string &exe, const std::vector<std::string> &args);

struct Captured {
  int status = -1;       // exit status, or -1 when killed (see signal)
  int signal = 0;        // the signal that ended it (0: none)
  bool timedOut = false; // killed after the time limit
  std::string out;       // its standard output
};

// Runs exe with args and collects its standard output; its standard error
// goes to ours. Kills it after timeoutSeconds (0: no limit).
Captured capture(const std::string &exe, const std::vector<std::string> &args, double timeoutSeconds);

} // namespace arrc::driver
