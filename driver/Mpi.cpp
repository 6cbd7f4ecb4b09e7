// The MPI side of the driver. See Mpi.h.
#include "Mpi.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
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

// Open MPI keeps a session directory per job under one base directory in
// /tmp; jobs started and ended at the same moment (arrc test -j) race on it
// ("ORTE_ERROR_LOG ... session_dir.c"). Each job gets a base of its own,
// removed when arrc exits.
std::string sessionBase() {
  static std::mutex lock; // arrc test runs files on several threads
  std::lock_guard<std::mutex> guard(lock);
  static std::vector<fs::path> made;
  static int counter = 0;
  static bool registered = false;
  if (!registered) {
    registered = true;
    std::atexit([] {
      std::error_code ec;
      for (auto &d : made) fs::remove_all(d, ec);
    });
  }
  std::error_code ec;
  fs::path d = fs::temp_directory_path(ec) / ("arrc-mpi-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(d, ec);
  made.push_back(d);
  return d.string();
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
      cmd.insert(cmd.end(), {"--mca", "orte_tmpdir_base", sessionBase()});
    }
  }
  cmd.push_back("-n");
  cmd.push_back(std::to_string(ranks));
  cmd.push_back(exe);
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

} // namespace arrc::driver
