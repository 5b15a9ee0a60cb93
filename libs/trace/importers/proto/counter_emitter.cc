#include "libs/trace/importers/proto/counter_emitter.h"

namespace tw {

void CounterEmitter::Emit(const PacketContext& packet, Track track, double value) {
  CounterData c;
  c.scope = track.scope;
  c.scope_id = track.scope_id;
  c.name = ctx_->Intern(track.name);
  c.type = ctx_->Intern(track.type);
  c.unit = track.unit.empty() ? kNullStringId : ctx_->Intern(track.unit);
  c.value = value;
  c.dimension_args = std::move(track.dimensions);
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kCounter, std::move(c)));
}

Arg CounterEmitter::IntDimension(std::string_view key, int64_t value) {
  const StringId k = ctx_->Intern(key);
  return Arg{k, k, ArgValue::Int(value)};
}

Arg CounterEmitter::StringDimension(std::string_view key, std::string_view value) {
  const StringId k = ctx_->Intern(key);
  return Arg{k, k, ArgValue::String(ctx_->Intern(value))};
}

}  // namespace tw
