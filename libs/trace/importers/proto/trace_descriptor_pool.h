#pragma once
// The descriptor pool one trace decodes with: the process's embedded pool, plus whatever the
// trace's own ExtensionDescriptor packets (TracePacket field 72) define — producers describe
// the extensions and newer fields they write there, and trace_processor merges those
// descriptors into its pool and decodes args with them.
//
// Copy-on-write: until the trace brings a descriptor, the process pool is read in place; the
// first one copies it and merges into the copy. Loading a trace therefore never changes how
// another trace (loaded before, after or at the same time) is decoded.

#include <memory>
#include <optional>
#include <string_view>

#include "libs/trace/importers/proto/descriptor_pool.h"

namespace tw {

class TraceDescriptorPool {
 public:
  // `process_pool` must outlive this object (the embedded pools are never freed).
  explicit TraceDescriptorPool(const DescriptorPool& process_pool);

  const DescriptorPool& pool() const { return own_ ? *own_ : *base_; }
  // Whether the trace added descriptors of its own.
  bool extended() const { return own_ != nullptr; }

  // Merges an ExtensionDescriptor message: its extension_set (a FileDescriptorSet), or its
  // gzip-compressed extension_set_gzip. False if the message or the set is malformed.
  bool AddExtensionDescriptor(std::string_view descriptor);
  // Merges a serialized FileDescriptorSet. False if it is malformed.
  bool AddFileDescriptorSet(std::string_view set);

  // The name of `value` in the enum `enum_full_name`, from the process pool or the trace's.
  std::optional<std::string_view> EnumValueName(std::string_view enum_full_name,
                                                int32_t value) const {
    return pool().EnumValueName(enum_full_name, value);
  }

 private:
  const DescriptorPool* base_;
  std::unique_ptr<DescriptorPool> own_;
};

}  // namespace tw
