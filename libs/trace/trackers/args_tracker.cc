#include "libs/trace/trackers/args_tracker.h"

#include "absl/hash/hash.h"

namespace tw {
namespace {

uint64_t HashArgs(const std::vector<Arg>& args) {
  uint64_t h = 1469598103934665603ull;
  for (const Arg& a : args) {
    h = absl::HashOf(h, a.flat_key, a.key, static_cast<int>(a.value.type), a.value.int_value,
                     a.value.string_value, a.value.real_value);
  }
  return h;
}

bool SameValue(const ArgValue& a, const ArgValue& b) {
  return a.type == b.type && a.int_value == b.int_value && a.string_value == b.string_value &&
         (a.real_value == b.real_value || (a.real_value != a.real_value && b.real_value != b.real_value));
}

}  // namespace

ArgsTracker::ArgsTracker(TraceStorage* storage) : storage_(storage) {
  const char* names[] = {"null", "int", "uint", "string", "real", "pointer", "bool", "json"};
  for (int i = 0; i < 8; ++i) type_names_[i] = storage_->Intern(names[i]);
}

Arg ArgsTracker::MakeArg(std::string_view key, ArgValue value) {
  const StringId k = storage_->Intern(key);
  return Arg{k, k, value};
}

Arg ArgsTracker::MakeArg(std::string_view flat_key, std::string_view key, ArgValue value) {
  return Arg{storage_->Intern(flat_key), storage_->Intern(key), value};
}

std::optional<uint32_t> ArgsTracker::AddArgSet(const std::vector<Arg>& args) {
  if (args.empty()) return std::nullopt;
  const uint64_t h = HashArgs(args);
  std::vector<uint32_t>& candidates = by_hash_[h];
  ArgTable& t = storage_->args;
  for (uint32_t id : candidates) {
    if (SetSize(id) != args.size()) continue;
    bool same = true;
    for (size_t i = 0; i < args.size() && same; ++i) {
      const uint32_t row = id + static_cast<uint32_t>(i);
      const Arg& a = args[i];
      ArgValue stored{static_cast<ArgValue::Type>(0), 0, 0, kNullStringId};
      same = t.key[row] == a.key && t.flat_key[row] == a.flat_key;
      if (same) {
        // Compare through the original value kept in the columns.
        const StringId vt = t.value_type[row];
        same = vt == type_names_[static_cast<int>(a.value.type)];
        if (same) {
          stored.type = a.value.type;
          stored.int_value = t.int_value[row];
          stored.string_value = t.string_value[row];
          stored.real_value = t.real_value[row];
          same = SameValue(stored, a.value);
        }
      }
    }
    if (same) return id;
  }
  const uint32_t id = t.row_count();
  candidates.push_back(id);
  for (const Arg& a : args) {
    const auto type = a.value.type;
    const bool is_int = type == ArgValue::Type::kInt || type == ArgValue::Type::kUint ||
                        type == ArgValue::Type::kPointer || type == ArgValue::Type::kBool;
    const bool is_string = type == ArgValue::Type::kString || type == ArgValue::Type::kJson;
    t.Insert({.arg_set_id = id,
              .flat_key = a.flat_key,
              .key = a.key,
              .int_value = is_int ? OptI64(a.value.int_value) : OptI64(),
              .string_value = is_string ? a.value.string_value : kNullStringId,
              .real_value = type == ArgValue::Type::kReal
                                ? std::optional<double>(a.value.real_value)
                                : std::optional<double>(),
              .value_type = type_names_[static_cast<int>(type)]});
  }
  return id;
}

uint32_t ArgsTracker::SetSize(uint32_t id) const {
  const ArgTable& t = storage_->args;
  uint32_t row = id;
  while (row < t.row_count() && t.arg_set_id[row] == id) ++row;
  return row - id;
}

std::vector<Arg> ArgsTracker::GetArgSet(uint32_t arg_set_id) const {
  std::vector<Arg> out;
  const ArgTable& t = storage_->args;
  if (arg_set_id >= t.row_count() || t.arg_set_id[arg_set_id] != arg_set_id) return out;
  const uint32_t size = SetSize(arg_set_id);
  for (uint32_t i = 0; i < size; ++i) {
    const uint32_t row = arg_set_id + i;
    Arg a;
    a.flat_key = t.flat_key[row];
    a.key = t.key[row];
    for (int k = 0; k < 8; ++k) {
      if (type_names_[k] == t.value_type[row]) a.value.type = static_cast<ArgValue::Type>(k);
    }
    a.value.int_value = t.int_value.IsNull(row) ? 0 : t.int_value[row];
    a.value.string_value = t.string_value[row];
    a.value.real_value = t.real_value.IsNull(row) ? 0 : t.real_value[row];
    out.push_back(a);
  }
  return out;
}

}  // namespace tw
