#include "libs/trace/trackers/args_tracker.h"

#include <cstring>

namespace tw {
namespace {

// wyhash-style folded 64×64→128 multiply: one instruction pair mixes two words well enough
// that distinct sets rarely share a hash (a shared hash only costs a comparison).
inline uint64_t FoldedMultiply(uint64_t a, uint64_t b) {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

// The one word of an arg's value that its args row stores: the int of the integer types, the
// string id of string and json, the bits of a real (0.0 and -0.0 are one value), nothing for
// null. Hashing only what is stored makes two sets equal exactly when their rows would be.
inline uint64_t StoredValueWord(const ArgValue& v) {
  switch (v.type) {
    case ArgValue::Type::kString:
    case ArgValue::Type::kJson: return v.string_value;
    case ArgValue::Type::kReal: {
      uint64_t bits = 0;
      if (v.real_value != 0) std::memcpy(&bits, &v.real_value, sizeof bits);
      return bits;
    }
    case ArgValue::Type::kNull: return 0;
    default: return static_cast<uint64_t>(v.int_value);
  }
}

// One folded multiply per arg and lane (this runs for every ftrace event): the first lane pairs
// the keys with the value, the second the value with the keys rotated, each salted with the
// type, so what collides in one lane rarely does in both.
ArgsTracker::SetHash HashArgs(absl::Span<const Arg> args) {
  uint64_t index = 0x243F6A8885A308D3ull ^ args.size();
  uint64_t check = 0x13198A2E03707344ull ^ args.size();
  for (const Arg& a : args) {
    const uint64_t keys = (uint64_t{a.flat_key} << 32) | a.key;
    const uint64_t type = static_cast<uint8_t>(a.value.type) * 0x9E3779B97F4A7C15ull;
    const uint64_t value = StoredValueWord(a.value);
    index = FoldedMultiply(index ^ keys ^ 0xA0761D6478BD642Full, value ^ type ^ 0xE7037ED1A0B428DBull);
    check = FoldedMultiply(check ^ value ^ 0x8EBC6AF09C88C6E3ull,
                           ((keys << 23) | (keys >> 41)) ^ type ^ 0x589965CC75374CC3ull);
  }
  return {index, static_cast<uint32_t>(check ^ (check >> 32))};
}

}  // namespace

ArgsTracker::ArgsTracker(TraceStorage* storage) : storage_(storage) {
  const char* names[] = {"null", "int", "uint", "string", "real", "pointer", "bool", "json"};
  for (int i = 0; i < 8; ++i) type_names_[i] = storage_->Intern(names[i]);
}

ArgsTracker::ArgsTracker(TraceStorage* storage, int index_bits) : ArgsTracker(storage) {
  if (index_bits < 64) index_mask_ = (uint64_t{1} << index_bits) - 1;
}

Arg ArgsTracker::MakeArg(std::string_view key, ArgValue value) {
  const StringId k = storage_->Intern(key);
  return Arg{k, k, value};
}

Arg ArgsTracker::MakeArg(std::string_view flat_key, std::string_view key, ArgValue value) {
  return Arg{storage_->Intern(flat_key), storage_->Intern(key), value};
}

std::optional<uint32_t> ArgsTracker::AddArgSet(absl::Span<const Arg> args) {
  if (args.empty()) return std::nullopt;
  return AddPreparedArgSet(args, HashArgs(args));
}

ArgsTracker::SetHash ArgsTracker::PrepareArgSet(absl::Span<const Arg> args) {
  const SetHash hash = HashArgs(args);
  index_.Prefetch(hash.index & index_mask_);
  return hash;
}

std::optional<uint32_t> ArgsTracker::AddPreparedArgSet(absl::Span<const Arg> args,
                                                       SetHash hash) {
  if (args.empty()) return std::nullopt;
  const uint32_t id = storage_->args.row_count();  // the new set's id, should it be new
  // Agreeing on both hashes (96 bits) is taken as equality without reading the stored rows,
  // which are scattered through the args columns and would cost several cache misses per
  // event: across a million distinct sets the chance of a false match is about 1e-17.
  const uint32_t found = index_.FindOrInsert(hash.index & index_mask_, hash.check, id);
  if (found == id) AppendRows(args);
  return found;
}

void ArgsTracker::AppendRows(absl::Span<const Arg> args) {
  ArgTable& t = storage_->args;
  const uint32_t id = t.row_count();
  ++set_count_;
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
}

std::vector<Arg> ArgsTracker::GetArgSet(uint32_t arg_set_id) const {
  std::vector<Arg> out;
  const ArgTable& t = storage_->args;
  // A set's id is its first row, so a row whose arg_set_id is another row is not a set's start.
  if (arg_set_id >= t.row_count() || t.arg_set_id[arg_set_id] != arg_set_id) return out;
  for (uint32_t row = arg_set_id; row < t.row_count() && t.arg_set_id[row] == arg_set_id; ++row) {
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
