#include "libs/trace/importers/proto/counter_emitter.h"

namespace tw {

CounterData CounterEmitter::Build(Track track) {
  CounterData c;
  c.scope = track.scope;
  c.scope_id = track.scope_id;
  c.name = ctx_->Intern(track.name);
  c.type = ctx_->Intern(track.type);
  c.unit = track.unit.empty() ? kNullStringId : ctx_->Intern(track.unit);
  c.dimension_args = std::move(track.dimensions);
  c.track_args = std::move(track.source_args);
  return c;
}

void CounterEmitter::Emit(const PacketContext& packet, Track track, double value,
                          std::vector<Arg> args) {
  CounterData c = Build(std::move(track));
  c.value = value;
  c.args = std::move(args);
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kCounter, std::move(c)));
}

void CounterEmitter::Declare(const PacketContext& packet, Track track) {
  CounterData c = Build(std::move(track));
  c.declare_only = true;
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kCounter, std::move(c)));
}

Arg CounterEmitter::IntDimension(std::string_view key, int64_t value) {
  const StringId k = ctx_->Intern(key);
  return Arg{k, k, ArgValue::Int(value)};
}

Arg CounterEmitter::UintDimension(std::string_view key, uint64_t value) {
  const StringId k = ctx_->Intern(key);
  return Arg{k, k, ArgValue::Uint(value)};
}

Arg CounterEmitter::StringDimension(std::string_view key, std::string_view value) {
  const StringId k = ctx_->Intern(key);
  return Arg{k, k, ArgValue::String(ctx_->Intern(value))};
}

}  // namespace tw
