// Diagnostics: `file:line:col: error: message`, then the source line and a
// caret under the column. Every stage reports through one Diagnostics object.
#pragma once

#include "arrc/Source.h"

#include <iosfwd>
#include <string>

namespace arrc {

enum class Severity { Error, Warning, Note };

class Diagnostics {
public:
  Diagnostics(const SourceManager &sources, std::ostream &out);

  void error(const Span &span, const std::string &message);
  void warning(const Span &span, const std::string &message);
  void note(const Span &span, const std::string &message);
  void report(Severity severity, const Span &span, const std::string &message);

  // Under -Werror every warning is reported as an error.
  void setWarningsAsErrors(bool on) { werror_ = on; }
  // Stop printing after this many errors (the count keeps going).
  void setErrorLimit(int limit) { errorLimit_ = limit; }

  int errorCount() const { return errors_; }
  int warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ > 0; }

private:
  const SourceManager &sources_;
  std::ostream &out_;
  bool werror_ = false;
  int errorLimit_ = 50;
  int errors_ = 0;
  int warnings_ = 0;
};

} // namespace arrc
