#include "libs/trace/importers/proto/trace_descriptor_pool.h"

#include <string>

#include "libs/trace/importers/proto/inflate_bytes.h"
#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw {
namespace {

// ExtensionDescriptor fields (protos/perfetto/trace/extension_descriptor.proto).
constexpr uint32_t kExtensionSet = 1;      // FileDescriptorSet
constexpr uint32_t kExtensionSetGzip = 2;  // bytes: a gzip-compressed FileDescriptorSet

}  // namespace

TraceDescriptorPool::TraceDescriptorPool(const DescriptorPool& process_pool)
    : base_(&process_pool) {}

bool TraceDescriptorPool::AddExtensionDescriptor(std::string_view descriptor) {
  proto::Decoder d(descriptor);
  proto::Field f;
  bool ok = true;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == kExtensionSet) {
      ok = AddFileDescriptorSet(f.as_string()) && ok;
    } else if (f.id == kExtensionSetGzip) {
      const std::optional<std::string> set = InflateBytes(f.as_string(), Compression::kGzip);
      ok = set && AddFileDescriptorSet(*set) && ok;
    }
  }
  return ok && !d.error();
}

bool TraceDescriptorPool::AddFileDescriptorSet(std::string_view set) {
  if (!own_) own_ = std::make_unique<DescriptorPool>(*base_);
  return own_->AddFileDescriptorSet(set);
}

}  // namespace tw
