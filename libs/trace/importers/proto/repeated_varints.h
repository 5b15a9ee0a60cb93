#pragma once
// Repeated integer fields arrive packed (one length-delimited field) or unpacked (one varint
// field per value) depending on the writer; readers must accept both.

#include <cstdint>

#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw::proto {

// Calls `fn(uint64_t)` for every value carried by one occurrence of a repeated varint field.
// Returns false if a packed payload is malformed (values before the damage are still passed).
template <typename Fn>
bool ForEachVarint(const Field& f, Fn&& fn) {
  if (f.type == kVarint) {
    fn(f.int_value);
    return true;
  }
  if (f.type != kLengthDelimited) return false;
  PackedVarints packed(f);
  uint64_t v;
  while (packed.Next(&v)) fn(v);
  return !packed.error();
}

}  // namespace tw::proto
