#include "libs/trace/importers/proto/schema_pools.h"

#include <string_view>

namespace tw {

std::string_view WinscopeDescriptorSet();    // generated from schema/winscope.proto
std::string_view TrackEventDescriptorSet();  // generated from schema/track_event.proto

const DescriptorPool& WinscopeDescriptors() {
  static const DescriptorPool* pool = [] {
    auto* p = new DescriptorPool();
    p->AddFileDescriptorSet(WinscopeDescriptorSet());
    return p;
  }();
  return *pool;
}

const DescriptorPool& TrackEventDescriptors() {
  static const DescriptorPool* pool = [] {
    auto* p = new DescriptorPool();
    p->AddFileDescriptorSet(TrackEventDescriptorSet());
    return p;
  }();
  return *pool;
}

}  // namespace tw
