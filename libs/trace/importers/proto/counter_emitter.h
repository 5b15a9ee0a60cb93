#pragma once
// Builds CounterData events the way the system-probe decoders need them: one sample on a track
// named and typed as trace_processor names it, with the dimensions that identify the track.
// Samples go to the packet's sequence queue so the sorter keeps them in file order on ties.

#include <cstdint>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class CounterEmitter {
 public:
  explicit CounterEmitter(ImportContext* ctx) : ctx_(ctx) {}

  struct Track {
    CounterData::Scope scope = CounterData::Scope::kGlobal;
    int64_t scope_id = 0;  // cpu / pid / tid
    std::string_view name;
    std::string_view type;
    std::string_view unit;           // empty: no unit
    std::vector<Arg> dimensions;     // beyond the scope's own (cpu / upid / utid)
    std::vector<Arg> source_args;    // the track's args (track.source_arg_set_id), if any
  };

  // `args`: args of the sample itself (counter.arg_set_id).
  void Emit(const PacketContext& packet, Track track, double value, std::vector<Arg> args = {});
  // Creates the track (a meter a descriptor announced) without adding a sample.
  void Declare(const PacketContext& packet, Track track);

  // Dimension args with interned keys.
  Arg IntDimension(std::string_view key, int64_t value);
  Arg StringDimension(std::string_view key, std::string_view value);
  Arg UintDimension(std::string_view key, uint64_t value);

 private:
  CounterData Build(Track track);

  ImportContext* ctx_;
};

}  // namespace tw
