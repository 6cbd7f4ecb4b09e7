// The MPI side of the driver. See Mpi.h.
#include "Mpi.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace arrc::driver {

bool mpiAvailable(std::string &why) {
#if defined(ARRC_BUILD_WITH_MPI)
  why.clear();
  return true;
#else
  why = "this arrc was built without MPI (install libopenmpi-dev and openmpi-bin, then rebuild): "
        "--ranks is not available";
  return false;
#endif
}

std::string mpiCompileFlags() {
#if defined(ARRC_BUILD_WITH_MPI)
  return std::string("-DARRC_MPI=1 ") + ARRC_MPI_COMPILE_FLAGS;
#else
  return "";
#endif
}

std::string mpiClusterLibrary(const std::string &runtimeLibrary) {
  fs::path cluster = fs::path(runtimeLibrary).parent_path() / "libarrc_cluster.a";
  std::error_code ec;
#if defined(ARRC_BUILD_WITH_MPI)
  if (!fs::exists(cluster, ec)) cluster = ARRC_BUILD_CLUSTER_LIB;
#endif
  return cluster.string();
}

std::string mpiLinkFlags(const std::string &runtimeLibrary) {
#if defined(ARRC_BUILD_WITH_MPI)
  return "'" + mpiClusterLibrary(runtimeLibrary) + "' " + ARRC_MPI_LINK_FLAGS;
#else
  (void)runtimeLibrary;
  return "";
#endif
}

namespace {

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> r;
  std::istringstream in(s);
  std::string w;
  while (in >> w) r.push_back(w);
  return r;
}

bool isOpenMpi(const std::string &mpirun) {
  std::string cmd = "'" + mpirun + "' --version 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return false;
  char buf[256];
  std::string out;
  while (fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  return out.find("Open MPI") != std::string::npos || out.find("OpenRTE") != std::string::npos;
}

} // namespace

std::vector<std::string> mpirunCommand(int ranks, const std::string &exe, const std::vector<std::string> &args) {
  std::vector<std::string> cmd;
  const char *env = std::getenv("ARRC_MPIRUN");
  if (env && *env) {
    cmd = split(env);
  } else {
#if defined(ARRC_MPIEXEC)
    cmd.push_back(ARRC_MPIEXEC);
#else
    cmd.push_back("mpirun");
#endif
    if (isOpenMpi(cmd[0])) {
      cmd.push_back("--quiet"); // no notice of its own when ranks exit with status 1 (a program error)
      cmd.push_back("--oversubscribe");
      if (geteuid() == 0) cmd.push_back("--allow-run-as-root");
    }
  }
  cmd.push_back("-n");
  cmd.push_back(std::to_string(ranks));
  cmd.push_back(exe);
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

} // namespace arrc::driver
