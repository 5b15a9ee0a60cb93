#pragma once
// Names and field layouts of every ftrace event Perfetto records (wire-format facts), so the
// importer can store any ftrace event in `ftrace_event` with named args.

#include <cstdint>
#include <string_view>

namespace tw {

// How a field's value is encoded on the wire. Enum-typed fields are kInt.
enum class FtraceFieldKind : uint8_t {
  kInt,
  kUint,
  kSint,  // zigzag sint32/64
  kBool,
  kString,
  kBytes,
  kFixed64,
  kFixed32,
  kDouble,
  kFloat,
  kMessage,
};

struct FtraceFieldDescriptor {
  uint32_t id;
  std::string_view name;
  FtraceFieldKind kind;
};

struct FtraceEventDescriptor {
  uint32_t event_id;                    // field number of the event inside FtraceEvent
  std::string_view name;                // ftrace event name, e.g. "sched_switch"
  const FtraceFieldDescriptor* fields;  // sorted by id
  uint32_t field_count;
};

// Returns nullptr for an unknown event id.
const FtraceEventDescriptor* FindFtraceEventDescriptor(uint32_t event_id);

// Field descriptor of `field_id` inside `event`, or nullptr.
const FtraceFieldDescriptor* FindFtraceField(const FtraceEventDescriptor& event, uint32_t field_id);

// All known events, ordered by event id.
uint32_t FtraceEventDescriptorCount();
const FtraceEventDescriptor& FtraceEventDescriptorAt(uint32_t index);

}  // namespace tw
