#pragma once
// An arg set as one JSON object (what __intrinsic_arg_set_to_json returns): each arg's key is a
// path — "a.b" nests objects, "a[2]" indexes an array — and its value is placed there, objects
// keeping the order their first key arrived in. Values: numbers for int, uint (unsigned) and
// real, true/false for bool, a "0x..." string for pointer, the text itself for json, a string
// for string, null for a missing value.

#include <cstdint>
#include <string>
#include <vector>

namespace tw {

struct ArgJsonEntry {
  enum class Kind { kNull, kInt, kUint, kBool, kPointer, kReal, kString, kJson };
  std::string key;
  Kind kind = Kind::kNull;
  int64_t int_value = 0;
  double real_value = 0;
  std::string string_value;
};

// "{}" for no entries.
std::string ArgSetToJson(const std::vector<ArgJsonEntry>& entries);

}  // namespace tw
