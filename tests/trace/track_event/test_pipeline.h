#pragma once
// Loads a Perfetto trace for the track-event tests through the same stages as the loader
// (importer → sorter → trackers → SQL), with the importer's descriptor registry wired to the
// tracker's and first_packet_on_sequence forwarded — the two hooks trace_loader.cc /
// proto_importer.cc are asked to provide. Keeps these tests about track events, independent of
// how far the loader's wiring has got.

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_importer.h"
#include "libs/trace/importers/proto/track_event_decoder.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/trace_loader.h"
#include "libs/trace/trackers/event_router.h"
#include "libs/trace/trackers/trace_context.h"
#include "libs/trace/trackers/track_event_tracker.h"

namespace tw::testing {

inline absl::StatusOr<std::unique_ptr<LoadedTrace>> LoadWithTrackEvents(std::string_view trace) {
  auto storage = std::make_unique<TraceStorage>();
  {
    TraceContext context(storage.get());
    EventRouter router(&context);
    EventSorter sorter(0, [&](Event& e) { router.Route(e); });
    // As the loader does: pid 0 is the idle task in proto traces.
    context.processes.SetPidZeroIsUpidZeroIdleProcess();
    ImportContext ictx;
    ictx.storage = storage.get();
    ictx.sorter = &sorter;
    ProtoImporter importer(&ictx);
    ictx.track_events->set_descriptor_registry(&context.track_events->descriptor_registry());
    ictx.translations = &context.slices.translations();
    proto::Decoder d(trace);
    proto::Field packet;
    while (d.Next(&packet)) {
      if (packet.id != pf::trace::kPacket || packet.type != proto::kLengthDelimited) continue;
      proto::Decoder pd(packet);
      proto::Field f;
      uint32_t sequence_id = 0;
      bool first = false;
      while (pd.Next(&f)) {
        if (f.id == pf::trace_packet::kTrustedPacketSequenceId) sequence_id = f.as_uint32();
        if (f.id == pf::trace_packet::kFirstPacketOnSequence) first = f.as_bool();
      }
      if (first) ictx.track_events->OnFirstPacketOnSequence(sequence_id);
      importer.HandlePacket(packet.as_string());
    }
    sorter.Finish();
    router.Finish();
  }
  storage->FinalizeStatsAndMetadata();
  auto db = TraceDatabase::Open(storage.get());
  if (!db.ok()) return db.status();
  return std::make_unique<LoadedTrace>(std::move(storage), std::move(*db), LoadInfo{});
}

}  // namespace tw::testing
