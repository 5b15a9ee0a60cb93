#pragma once
// Finds the numbers a sentence states, with their units and precision, so the verifier can look
// for them in the data a finding cites. "27 of 412 frames (9.2 %) waited 9–31 ms in binder"
// states 27, 412, 9.2 %, 9 ms and 31 ms.

#include <string>
#include <string_view>
#include <vector>

namespace tw::verify {

enum class NumberUnit {
  kNone,  // a count or plain number
  kNanoseconds, kMicroseconds, kMilliseconds, kSeconds,
  kPercent,
  kHertz, kKilohertz, kMegahertz, kGigahertz,
  kBytes, kKilobytes, kMegabytes, kGigabytes,
};

struct StatedNumber {
  double value = 0;
  int decimals = 0;      // digits after the decimal point as written: sets the rounding
  NumberUnit unit = NumberUnit::kNone;
  std::string text;      // as written, e.g. "9.2 %"
  size_t offset = 0;     // in the sentence
  bool is_threshold = false;  // introduced by "above", "over", "than", ">", "budget", ...
};

// Numbers glued to letters ("cpu7", "RenderThread2", "0x1f") and version-like runs ("1.2.3")
// are identifiers, not statements, and are skipped.
std::vector<StatedNumber> FindStatedNumbers(std::string_view text);

// True for unit classes that are durations.
bool IsDuration(NumberUnit unit);

}  // namespace tw::verify
