#include "libs/verify/stated_numbers.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "absl/strings/ascii.h"

namespace tw::verify {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

struct UnitWord {
  const char* word;
  NumberUnit unit;
};

// Longest first so "ms" wins over "m..." prefixes and "GHz" over "G".
constexpr UnitWord kUnits[] = {
    {"milliseconds", NumberUnit::kMilliseconds}, {"microseconds", NumberUnit::kMicroseconds},
    {"nanoseconds", NumberUnit::kNanoseconds},   {"millisecond", NumberUnit::kMilliseconds},
    {"microsecond", NumberUnit::kMicroseconds},  {"nanosecond", NumberUnit::kNanoseconds},
    {"seconds", NumberUnit::kSeconds},           {"second", NumberUnit::kSeconds},
    {"percent", NumberUnit::kPercent},           {"msec", NumberUnit::kMilliseconds},
    {"usec", NumberUnit::kMicroseconds},         {"secs", NumberUnit::kSeconds},
    {"sec", NumberUnit::kSeconds},               {"ghz", NumberUnit::kGigahertz},
    {"mhz", NumberUnit::kMegahertz},             {"khz", NumberUnit::kKilohertz},
    {"hz", NumberUnit::kHertz},                  {"gib", NumberUnit::kGigabytes},
    {"mib", NumberUnit::kMegabytes},             {"kib", NumberUnit::kKilobytes},
    {"gb", NumberUnit::kGigabytes},              {"mb", NumberUnit::kMegabytes},
    {"kb", NumberUnit::kKilobytes},              {"ms", NumberUnit::kMilliseconds},
    {"us", NumberUnit::kMicroseconds},           {"µs", NumberUnit::kMicroseconds},
    {"ns", NumberUnit::kNanoseconds},            {"bytes", NumberUnit::kBytes},
    {"b", NumberUnit::kBytes},                   {"s", NumberUnit::kSeconds},
    {"%", NumberUnit::kPercent},
};

// Reads a unit right after a number (optionally after one space); advances `pos` past it.
NumberUnit ReadUnit(std::string_view text, size_t& pos) {
  size_t p = pos;
  if (p < text.size() && text[p] == ' ') ++p;
  for (const UnitWord& u : kUnits) {
    const std::string_view word(u.word);
    if (p + word.size() > text.size()) continue;
    bool same = true;
    for (size_t i = 0; i < word.size() && same; ++i) {
      same = absl::ascii_tolower(static_cast<unsigned char>(text[p + i])) == word[i];
    }
    if (!same) continue;
    // The unit must end the word: "s" in "31 slices" is not seconds.
    const size_t end = p + word.size();
    if (end < text.size() && IsLetter(text[end]) && word != "%") continue;
    pos = end;
    return u.unit;
  }
  return NumberUnit::kNone;
}

// Digits that continue a name, a path or a version: "composer@2.4", "/data/1", "binder:12_3",
// "app-2", "#7". A '-' after a digit is a range ("9-31 ms"), so only a '-' after a letter counts.
bool IsIdentifierContext(std::string_view text, size_t begin) {
  const char before = text[begin - 1];
  if (IsLetter(before)) return true;
  switch (before) {
    case '#': case '@': case '/': case ':': case '.': case '\\': return true;
    case '-': return begin >= 2 && IsLetter(text[begin - 2]);
    default: return false;
  }
}

bool IsThresholdWord(std::string_view word) {
  static constexpr const char* kWords[] = {"above", "below", "over",     "under",  "than",
                                           "exceeds", "exceeding", "budget", "threshold",
                                           "target", "limit",   "within", "least",  "most",
                                           ">",      "<",       ">=",     "<=",     "≥", "≤"};
  for (const char* w : kWords) {
    if (word == w) return true;
  }
  return false;
}

// Looks at the two words before `offset` for a word that makes the number a threshold.
bool PrecededByThresholdWord(std::string_view text, size_t offset) {
  size_t end = offset;
  for (int words = 0; words < 2; ++words) {
    while (end > 0 && text[end - 1] == ' ') --end;
    size_t begin = end;
    while (begin > 0 && text[begin - 1] != ' ') --begin;
    if (begin == end) return false;
    std::string word = absl::AsciiStrToLower(std::string(text.substr(begin, end - begin)));
    while (!word.empty() && (word.back() == ',' || word.back() == '(')) word.pop_back();
    if (IsThresholdWord(word)) return true;
    end = begin;
  }
  return false;
}

}  // namespace

bool IsDuration(NumberUnit unit) {
  return unit == NumberUnit::kNanoseconds || unit == NumberUnit::kMicroseconds ||
         unit == NumberUnit::kMilliseconds || unit == NumberUnit::kSeconds;
}

std::vector<StatedNumber> FindStatedNumbers(std::string_view text) {
  std::vector<StatedNumber> out;
  // Index into `out` of numbers in a range ("9–31 ms") still waiting for the range's unit.
  std::vector<size_t> pending_range;
  size_t i = 0;
  while (i < text.size()) {
    if (!IsDigit(text[i])) {
      ++i;
      continue;
    }
    const size_t begin = i;
    // Glued to a preceding letter or digit-ish identifier: skip the whole token.
    if (begin > 0 && IsIdentifierContext(text, begin)) {
      while (i < text.size() && (IsDigit(text[i]) || IsLetter(text[i]) || text[i] == '.')) ++i;
      continue;
    }
    std::string digits;
    int decimals = -1;
    int dots = 0;
    while (i < text.size()) {
      const char c = text[i];
      if (IsDigit(c)) {
        digits.push_back(c);
        if (decimals >= 0) ++decimals;
      } else if (c == ',' && decimals < 0 && i + 3 < text.size() && IsDigit(text[i + 1]) &&
                 IsDigit(text[i + 2]) && IsDigit(text[i + 3]) &&
                 (i + 4 >= text.size() || !IsDigit(text[i + 4]))) {
        // Thousands separator "1,234".
      } else if (c == '.' && i + 1 < text.size() && IsDigit(text[i + 1])) {
        ++dots;
        digits.push_back('.');
        decimals = 0;
      } else {
        break;
      }
      ++i;
    }
    if (dots > 1) continue;  // a version or an address, not a quantity
    StatedNumber n;
    n.value = std::strtod(digits.c_str(), nullptr);
    n.decimals = decimals < 0 ? 0 : decimals;
    n.offset = begin;
    size_t after = i;
    n.unit = ReadUnit(text, after);
    if (n.unit == NumberUnit::kNone && i < text.size() && IsLetter(text[i]) && text[i] != 'x') {
      // Glued letters that are no unit ("2nd", "5th", "64bit"): not a quantity to ground.
      while (i < text.size() && (IsDigit(text[i]) || IsLetter(text[i]))) ++i;
      continue;
    }
    n.text = std::string(text.substr(begin, after - begin));
    n.is_threshold = PrecededByThresholdWord(text, begin);
    i = after;
    // A range "9–31 ms" / "9-31 ms" / "9 to 31 ms": the unit of the second applies to the first.
    const bool range_follows =
        n.unit == NumberUnit::kNone &&
        ((i < text.size() && text[i] == '-') || text.substr(i, 3) == "\xE2\x80\x93" ||
         text.substr(i, 4) == " to ");
    out.push_back(n);
    if (range_follows) {
      pending_range.push_back(out.size() - 1);
    } else {
      for (size_t index : pending_range) {
        if (out[index].unit == NumberUnit::kNone) out[index].unit = n.unit;
      }
      pending_range.clear();
    }
  }
  return out;
}

}  // namespace tw::verify
