#include "libs/trace/importers/proto/interrupt_info_decoder.h"

#include <optional>
#include <string_view>

namespace tw {
namespace {

// InterruptInfo.irq_mapping and InterruptMapping's fields (wire-format facts).
constexpr uint32_t kIrqMapping = 1, kIrqId = 1, kName = 2;

}  // namespace

void InterruptInfoDecoder::Decode(const proto::Field& field, uint32_t machine) {
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != kIrqMapping || f.type != proto::kLengthDelimited) continue;
    std::optional<uint32_t> irq;
    std::optional<std::string_view> name;
    proto::Decoder md(f);
    proto::Field mf;
    while (md.Next(&mf)) {
      if (mf.id == kIrqId) irq = mf.as_uint32();
      if (mf.id == kName && mf.type == proto::kLengthDelimited) name = mf.as_string();
    }
    if (!irq || !name || !seen_.insert({machine, *irq}).second) continue;
    ctx_->storage->linux_interrupt_mapping.Insert(
        {.irq_id = *irq, .name = ctx_->Intern(*name), .machine_id = machine});
  }
}

}  // namespace tw
