#include "libs/trace/importers/systrace/process_dump.h"

#include <string>
#include <vector>

#include "libs/trace/importers/systrace/ftrace_text_args.h"

namespace tw {
namespace {

std::vector<std::string_view> SplitOnSpaces(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::optional<int32_t> ParsePid(std::string_view s) {
  const std::optional<uint64_t> v = ParseTextUint(s, false);
  if (!v || *v > 0x7fffffff) return std::nullopt;
  return static_cast<int32_t>(*v);
}

// The rest of the line from token `first` on (command lines contain spaces).
std::string_view RestFrom(std::string_view line, const std::vector<std::string_view>& tokens,
                          size_t first) {
  const size_t offset = static_cast<size_t>(tokens[first].data() - line.data());
  std::string_view rest = line.substr(offset);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
  return rest;
}

}  // namespace

bool ProcessDumpParser::ParseLine(std::string_view line, ProcessTreeData* out) {
  const std::vector<std::string_view> t = SplitOnSpaces(line);
  if (t.empty()) return true;
  if (t.size() == 4 && t[0] == "USER" && t[1] == "PID" && t[2] == "TID" && t[3] == "CMD") {
    short_layout_ = true;
    return true;
  }
  if (t.size() > 4 && t[0] == "USER" && t[1] == "PID" && t[2] == "PPID" && t[3] == "VSZ") {
    short_layout_ = false;
    return true;
  }
  if (short_layout_) {
    if (t.size() < 4) return false;
    const std::optional<int32_t> tgid = ParsePid(t[1]);
    const std::optional<int32_t> tid = ParsePid(t[2]);
    if (!tgid || !tid) return false;
    out->threads.push_back({*tid, *tgid, std::string(RestFrom(line, t, 3))});
    return true;
  }
  if (t.size() < 10) return false;
  const std::optional<int32_t> pid = ParsePid(t[1]);
  const std::optional<int32_t> ppid = ParsePid(t[2]);
  if (!pid || !ppid) return false;
  ProcessTreeData::Process p;
  p.pid = *pid;
  p.ppid = *ppid;
  // The NAME column names the process; the command line after it is not recorded, as in
  // trace_processor.
  p.cmdline.emplace_back(t[8]);
  out->processes.push_back(std::move(p));
  return true;
}

}  // namespace tw
