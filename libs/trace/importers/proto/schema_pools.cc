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
    // Traces name these types in Perfetto's package (their ExtensionDescriptors, the type
    // names of debug annotations' proto values).
    p->AliasPackage(".perfetto.protos", ".tracewise.schema.track_event");
    p->AddFileDescriptorSet(TrackEventDescriptorSet());
    return p;
  }();
  return *pool;
}

}  // namespace tw
