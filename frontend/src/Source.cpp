#include "arrc/Source.h"

namespace arrc {

int SourceManager::add(std::string path, std::string text) {
  File f{std::move(path), std::move(text), {0}};
  for (size_t i = 0; i < f.text.size(); ++i)
    if (f.text[i] == '\n')
      f.lineStarts.push_back(i + 1);
  files_.push_back(std::move(f));
  return static_cast<int>(files_.size()) - 1;
}

std::string SourceManager::line(int file, int line) const {
  if (file < 0 || file >= count() || line < 1)
    return "";
  const File &f = files_[file];
  if (static_cast<size_t>(line) > f.lineStarts.size())
    return "";
  size_t begin = f.lineStarts[line - 1];
  size_t end = f.text.find('\n', begin);
  if (end == std::string::npos)
    end = f.text.size();
  if (end > begin && f.text[end - 1] == '\r')
    --end;
  return f.text.substr(begin, end - begin);
}

std::string SourceManager::location(const Span &span) const {
  if (span.file < 0 || span.file >= count())
    return "<unknown>";
  return path(span.file) + ":" + std::to_string(span.begin.line) + ":" +
         std::to_string(span.begin.col);
}

} // namespace arrc
