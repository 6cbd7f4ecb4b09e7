// fork/exec with an optional time limit. See Process.h.
#include "Process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace arrc::driver {
namespace {

std::vector<char *> argvOf(const std::string &exe, const std::vector<std::string> &args) {
  std::vector<char *> argv;
  argv.push_back(const_cast<char *>(exe.c_str()));
  for (auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

// The running program (its process group) while arrc waits for it: a
// SIGTERM, SIGINT or SIGHUP that ends arrc (`timeout`, a CI job's
// cancellation) ends it first, where it would have run on (an `arrc bench`
// child went on for minutes after `timeout` ended arrc).
volatile sig_atomic_t g_child = 0;
extern "C" void endChildAndExit(int sig) {
  if (g_child > 0) {
    kill(-g_child, SIGTERM);
    kill(g_child, SIGTERM);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}
struct ForwardSignals {
  struct sigaction old[3];
  static constexpr int kSigs[3] = {SIGTERM, SIGINT, SIGHUP};
  explicit ForwardSignals(pid_t pid) {
    g_child = pid;
    struct sigaction sa {};
    sa.sa_handler = endChildAndExit;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(kSigs[i], &sa, &old[i]);
  }
  ~ForwardSignals() {
    for (int i = 0; i < 3; ++i) sigaction(kSigs[i], &old[i], nullptr);
    g_child = 0;
  }
};

// In the child before exec: SIGTERM when arrc itself dies (SIGKILL, which
// no handler sees); gone already: exit.
void dieWithParent(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(1);
}

int waitFor(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

} // namespace

int execute(const std::string &exe, const std::vector<std::string> &args) {
  std::cout.flush();
  std::vector<char *> argv = argvOf(exe, args);
  const pid_t self = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("arrc: fork");
    return 1;
  }
  if (pid == 0) {
    dieWithParent(self);
    execvp(exe.c_str(), argv.data());
    std::perror("arrc: exec");
    _exit(127);
  }
  ForwardSignals forward(pid);
  int status = waitFor(pid);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::cerr << "arrc: error: the program was killed by signal " << WTERMSIG(status) << "\n";
  return 1;
}

Captured capture(const std::string &exe, const std::vector<std::string> &args, double timeoutSeconds) {
  Captured r;
  int fds[2];
  if (pipe(fds) != 0) {
    std::perror("arrc: pipe");
    return r;
  }
  std::cout.flush();
  std::cerr.flush();
  std::vector<char *> argv = argvOf(exe, args);
  const pid_t self = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("arrc: fork");
    close(fds[0]);
    close(fds[1]);
    return r;
  }
  if (pid == 0) {
    // its own process group: a time-out ends it with its children (mpirun's ranks)
    setpgid(0, 0);
    dieWithParent(self);
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    execvp(exe.c_str(), argv.data());
    std::perror("arrc: exec");
    _exit(127);
  }
  close(fds[1]);
  ForwardSignals forward(pid);
  using clock = std::chrono::steady_clock;
  auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                     std::chrono::duration<double>(timeoutSeconds));
  char buf[65536];
  for (;;) {
    int wait = -1;
    if (timeoutSeconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
      if (left <= 0) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        r.timedOut = true;
        break;
      }
      wait = static_cast<int>(left);
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, wait);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) continue; // the deadline check above kills it
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    r.out.append(buf, static_cast<size_t>(got));
  }
  close(fds[0]);
  int status = waitFor(pid);
  if (WIFEXITED(status)) r.status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

} // namespace arrc::driver
