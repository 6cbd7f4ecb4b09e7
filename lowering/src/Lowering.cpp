// lowerProgram: lowers every export of the main module (internal functions
// are inlined at their calls), reporting unsupported constructs as
// positioned errors.
#include "Lower.h"
#include "arrc/Lowering.h"

#include <cstdlib>

namespace arrc {

bool LowerOptions::parseNested(const std::string &text, Nested &out) {
  if (text == "auto") out = Nested::Auto;
  else if (text == "flatten") out = Nested::Flatten;
  else if (text == "sequential") out = Nested::Sequential;
  else return false;
  return true;
}

LowerOptions LowerOptions::fromEnvironment() {
  LowerOptions o;
  if (const char *e = std::getenv("ARRC_NESTED"); e && *e) parseNested(e, o.nested);
  if (const char *e = std::getenv("ARRC_NARROW_RANGES"); e && std::string(e) == "0") o.narrowRanges = false;
  return o;
}

bool lowerProgram(const Program &program, const SourceManager &sources, Diagnostics &diags, ir::Module &out) {
  return lowerProgram(program, sources, diags, out, LowerOptions::fromEnvironment());
}

bool lowerProgram(const Program &program, const SourceManager &sources, Diagnostics &diags, ir::Module &out,
                  const LowerOptions &options) {
  if (program.modules.empty()) return true;
  const arrc::Module &main = program.modules[0];
  out.name = main.name;
  out.files.clear();
  for (int f = 0; f < sources.count(); ++f) out.files.push_back(sources.path(f));
  bool ok = true;
  for (auto &fp : main.functions) {
    if (!fp || !fp->exported || !fp->typeParams.empty()) continue;
    lower::Lowerer L(program, sources, out);
    L.options = options;
    ir::Function f;
    try {
      L.lowerExport(*fp, f);
      out.functions.push_back(std::move(f));
    } catch (const lower::LowerError &e) {
      diags.error(e.span.valid() ? e.span : fp->span, e.message);
      ok = false;
    } catch (const std::exception &e) {
      diags.error(fp->span, std::string("internal error in lowering: ") + e.what());
      ok = false;
    }
  }
  return ok;
}

} // namespace arrc
