#include "libs/trace/events/task_state.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace tw {
namespace {

enum Flag : uint32_t {
  kInterruptibleSleep = 0x01,
  kUninterruptibleSleep = 0x02,
  kStopped = 0x04,
  kTraced = 0x08,
  kExitDead = 0x10,
  kExitZombie = 0x20,
  kTaskDead = 0x40,
  kWakeKill = 0x80,
  kWaking = 0x100,
  kParked = 0x200,
  kNoLoad = 0x400,
  kIdle = 0x800,
  kPreempted = 0x1000,
  kInvalid = 0x8000,
};

uint32_t Parse(uint16_t raw, KernelVersion v) {
  uint32_t parsed = raw & 0x3f;
  if (v.AtLeast(4, 14)) {
    if (raw & 0x40) parsed |= kParked;
    if (raw & 0x80) parsed |= kIdle;
    if (raw & 0x100) parsed |= kPreempted;
    if (raw & 0xfe00) parsed = kInvalid;
    return parsed;
  }
  if (raw & 0x40) parsed |= kTaskDead;
  if (raw & 0x80) parsed |= kWakeKill;
  if (raw & 0x100) parsed |= kWaking;
  if (raw & 0x200) parsed |= kParked;
  if (raw & 0x400) parsed |= kNoLoad;
  if (parsed == (kUninterruptibleSleep | kNoLoad)) parsed = kIdle;
  if (v.AtLeast(4, 8)) {
    if (raw & 0x1000) parsed |= kPreempted;
  } else if (raw & 0x800) {
    parsed |= kPreempted;
  }
  return parsed;
}

}  // namespace

std::optional<KernelVersion> ParseKernelVersion(std::string_view release) {
  KernelVersion v;
  size_t i = 0;
  auto number = [&](int* out) {
    if (i >= release.size() || !std::isdigit(static_cast<unsigned char>(release[i]))) return false;
    int n = 0;
    while (i < release.size() && std::isdigit(static_cast<unsigned char>(release[i]))) {
      n = n * 10 + (release[i++] - '0');
      if (n > 100000) return false;
    }
    *out = n;
    return true;
  };
  if (!number(&v.major)) return std::nullopt;
  if (i < release.size() && release[i] == '.') {
    ++i;
    if (!number(&v.minor)) return std::nullopt;
  }
  return v;
}

std::string TaskStateToString(int64_t raw_state, std::optional<KernelVersion> version) {
  const uint32_t parsed =
      Parse(static_cast<uint16_t>(raw_state), version.value_or(KernelVersion{4, 4}));
  if (parsed & kInvalid) return "";
  if (parsed == 0) return "R";
  if (parsed == kPreempted) return "R+";
  std::string out;
  const std::pair<uint32_t, char> letters[] = {
      {kInterruptibleSleep, 'S'}, {kUninterruptibleSleep, 'D'}, {kStopped, 'T'},
      {kTraced, 't'},             {kExitDead, 'X'},             {kExitZombie, 'Z'},
      {kParked, 'P'},             {kTaskDead, 'x'},             {kWakeKill, 'K'},
      {kWaking, 'W'},             {kNoLoad, 'N'},               {kIdle, 'I'}};
  for (const auto& [flag, c] : letters) {
    if (parsed & flag) out.push_back(c);
  }
  return out;
}

std::optional<int64_t> TaskStateFromLetters(std::string_view letters) {
  if (letters.empty()) return std::nullopt;
  // Runnable is "R", or "R+" when preempted (0x800 is the 4.4 preemption bit); as in
  // trace_processor, anything after a leading R other than exactly "+" is ignored.
  if (letters[0] == 'R') return letters == "R+" ? 0x800 : 0;
  // Each letter's bit in the 4.4 layout; idle is uninterruptible + no-load there.
  static constexpr std::pair<char, int64_t> kBits[] = {
      {'S', 0x01}, {'D', 0x02}, {'T', 0x04},  {'t', 0x08},  {'X', 0x10},  {'Z', 0x20},
      {'x', 0x40}, {'K', 0x80}, {'W', 0x100}, {'P', 0x200}, {'N', 0x400}, {'I', 0x402},
      {'|', 0}};  // '|' separates letters ("D|K")
  int64_t raw = 0;
  for (char c : letters) {
    const auto* it = std::find_if(std::begin(kBits), std::end(kBits),
                                  [c](const auto& entry) { return entry.first == c; });
    if (it == std::end(kBits)) return std::nullopt;  // includes a late 'R' or '+'
    raw |= it->second;
  }
  return raw;
}

}  // namespace tw
