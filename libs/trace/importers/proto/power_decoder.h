#pragma once
// Decodes the power data sources: battery counters (BatteryCounters), power rails (the ODPM
// energy meters: descriptors, then samples each with its own time), the energy estimation
// breakdown per consumer and per uid, and entity state residency (time each power entity spent
// in each state). Descriptors are kept here (they describe later samples of the trace);
// samples become counters on trace_processor's tracks.

#include <cstdint>
#include <string>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/counter_emitter.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class PowerDecoder {
 public:
  explicit PowerDecoder(ImportContext* ctx) : ctx_(ctx), counters_(ctx) {}

  void DecodeBattery(const PacketContext& packet, const proto::Field& field);
  void DecodePowerRails(const PacketContext& packet, const proto::Field& field);
  void DecodeEnergyBreakdown(const PacketContext& packet, const proto::Field& field);
  void DecodeEntityStateResidency(const PacketContext& packet, const proto::Field& field);

 private:
  struct Rail {
    std::string name;
    std::string subsystem;
    std::string track_name;
  };
  struct Consumer {
    std::string name;
    std::string type;
    int32_t ordinal;
  };
  struct EntityState {
    std::string entity;
    std::string state;
  };

  CounterEmitter::Track RailTrack(uint64_t session, const Rail& rail);

  ImportContext* ctx_;
  CounterEmitter counters_;
  // (machine, session, index): each machine numbers its own rails.
  absl::flat_hash_map<std::tuple<uint32_t, uint64_t, uint32_t>, Rail> rails_;
  absl::flat_hash_map<int32_t, Consumer> consumers_;
  absl::flat_hash_map<std::pair<int32_t, int32_t>, EntityState> entity_states_;
};

}  // namespace tw
