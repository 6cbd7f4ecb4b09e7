// `--ranks N` of arrc run/test/bench (docs/distributed.md): the harness is
// built against libarrc_cluster and MPI and started under mpirun.
#pragma once

#include <string>
#include <vector>

namespace arrc::driver {

// Whether this arrc was built with MPI (libarrc_cluster), and why not.
bool mpiAvailable(std::string &why);

// Compiler flags (-DARRC_MPI, MPI's include directories) and the libraries
// (libarrc_cluster, MPI's) of a distributed harness.
std::string mpiCompileFlags();
std::string mpiLinkFlags(const std::string &runtimeLibrary);
// libarrc_cluster next to the runtime library (build tree or installed prefix).
std::string mpiClusterLibrary(const std::string &runtimeLibrary);

// The command line that starts `exe args...` on `ranks` ranks:
// $ARRC_MPIRUN (split at spaces) or the mpiexec found when arrc was built;
// with Open MPI also --quiet (a program error is the program's to report),
// --oversubscribe (more ranks than cores, as on a CI machine) and, as root,
// --allow-run-as-root.
std::vector<std::string> mpirunCommand(int ranks, const std::string &exe, const std::vector<std::string> &args);

} // namespace arrc::driver
