#pragma once
// interrupt_info packets: the IRQ numbers and names a kernel lists in /proc/interrupts, kept
// in linux_interrupt_mapping (the first name seen for a number on a machine wins; mappings
// without both a number and a name are skipped). Untimed and descriptive, so written here.

#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class InterruptInfoDecoder {
 public:
  explicit InterruptInfoDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void Decode(const proto::Field& field, uint32_t machine);

 private:
  ImportContext* ctx_;
  absl::flat_hash_set<std::pair<uint32_t, uint32_t>> seen_;  // (machine, irq number)
};

}  // namespace tw
