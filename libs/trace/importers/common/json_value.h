#pragma once
// Reads JSON text that is already in memory: one trace event object, or a value inside it.
// Objects and arrays are walked member by member without building a tree, so an event costs no
// allocation beyond the strings that need unescaping. Containers are only delimited (brackets
// matched, strings skipped) until someone walks into them; walking validates what it reads.
// Nothing here throws or recurses without a bound: damaged input makes a walk return false.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"

namespace tw {

struct JsonValue {
  enum class Type : uint8_t { kNull, kBool, kNumber, kString, kObject, kArray };
  Type type = Type::kNull;
  bool boolean = false;
  // kNumber: the literal as written (so timestamps can be read exactly); kString: the contents,
  // unescaped; kObject / kArray: the raw text including its brackets.
  std::string_view text;

  bool is_string() const { return type == Type::kString; }
  bool is_number() const { return type == Type::kNumber; }
  bool is_object() const { return type == Type::kObject; }
};

// Containers nested deeper than this are damage as far as the walkers are concerned (it keeps
// the bracket matcher's stack and any recursive walker small).
inline constexpr int kMaxJsonDepth = 128;

// Calls `fn(key, value)` for each member of the object `text` ("{...}", surrounding whitespace
// allowed) in order; `fn` returns false to stop early (the walk then returns true). Views passed
// to `fn` are valid only during the call. False when `text` is not a well-formed object.
using JsonMemberFn = absl::FunctionRef<bool(std::string_view key, const JsonValue& value)>;
bool ForEachJsonMember(std::string_view text, JsonMemberFn fn);

// Same for the elements of an array "[...]".
using JsonElementFn = absl::FunctionRef<bool(const JsonValue& value)>;
bool ForEachJsonElement(std::string_view text, JsonElementFn fn);

// Parses `text` as exactly one JSON value (surrounding whitespace allowed). Strings with
// escapes are unescaped into `scratch`. False when `text` is anything else.
bool ParseJsonValue(std::string_view text, JsonValue* out, std::string* scratch);

// Number literals. Integers are exact; nullopt when the literal is not one or does not fit.
std::optional<int64_t> JsonNumberToInt64(std::string_view literal);
std::optional<uint64_t> JsonNumberToUint64(std::string_view literal);
// Any literal as a double (exponents and fractions included); nullopt when malformed.
std::optional<double> JsonNumberToDouble(std::string_view literal);

}  // namespace tw
