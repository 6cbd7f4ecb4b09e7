// `arrc run`: pick the export, build the harness (cached), run it. See Run.h.
#include "Run.h"

#include "Process.h"
#include "ProgramBuild.h"

#include <iostream>

namespace arrc::driver {

const ir::Function *chooseEntry(const ir::Module &m, const std::string &entry, const std::string &file,
                                const std::string &tool) {
  if (entry.empty()) {
    if (m.functions.size() == 1) return &m.functions[0];
    std::cerr << tool << ": error: " << file << " has " << m.functions.size()
              << " exports; choose one with -e:";
    for (auto &g : m.functions) std::cerr << " " << g.name;
    std::cerr << "\n";
    return nullptr;
  }
  for (auto &g : m.functions)
    if (g.name == entry) return &g;
  std::cerr << tool << ": error: no export named '" << entry << "' in " << file << " (exports:";
  for (auto &g : m.functions) std::cerr << " " << g.name;
  std::cerr << ")\n";
  return nullptr;
}

int runModule(const ir::Module &m, const RunRequest &req) {
  const ir::Function *f = chooseEntry(m, req.entry, req.input, "arrc run");
  if (!f) return 2;
  BuiltProgram program = buildProgram(m, req.input, "arrc run", false, req.ranks);
  if (!program.ok) {
    std::cerr << "arrc run: error: " << program.error << "\n";
    return 1;
  }
  std::vector<std::string> args{"run", f->name};
  args.insert(args.end(), req.args.begin(), req.args.end());
  std::vector<std::string> cmd = program.command(args);
  return execute(cmd[0], std::vector<std::string>(cmd.begin() + 1, cmd.end()));
}

} // namespace arrc::driver
