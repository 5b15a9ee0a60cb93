#pragma once
// Chrome JSON timestamps and durations are microseconds, often fractional ("ts": 1234.567).
// They become int64 nanoseconds by reading the decimal text itself, never through a double: a
// double holds only ~16 significant digits, and boot-relative microseconds with a fraction
// already need more.

#include <cstdint>
#include <optional>
#include <string_view>

namespace tw {

// `literal` is a JSON number literal (sign, digits, fraction, exponent) in microseconds. Returns
// nanoseconds, rounded half away from zero past the third decimal; nullopt when the text is not
// a number or the result does not fit in int64.
std::optional<int64_t> MicrosLiteralToNanos(std::string_view literal);

}  // namespace tw
