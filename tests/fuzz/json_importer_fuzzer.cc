// libFuzzer target for the Chrome JSON importer, fed directly (no format detection, so every
// input reaches it): the streaming outer-structure reader, the event walker and decoder, args
// flattening, metadata, systemTraceEvents lines, and the events they produce run through the
// sorter and the JSON event tracker. Any input must import or fail with a status: never crash,
// hang or allocate without bound (one event is capped at 1 MiB here).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libs/trace/importers/json/json_importer.h"
#include "libs/trace/reader/chunk_source.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/event_router.h"
#include "libs/trace/trackers/trace_context.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tw::TraceStorage storage;
  tw::TraceContext context(&storage);
  tw::EventRouter router(&context);
  tw::EventSorter sorter(0, [&](tw::Event& e) { router.Route(e); });
  tw::JsonImporter importer(&storage, &sorter, /*max_event_bytes=*/1 << 20);
  tw::MemoryChunkSource source(std::string_view(reinterpret_cast<const char*>(data), size));
  (void)importer.Import(&source);
  sorter.Finish();
  router.Finish();
  storage.FinalizeStatsAndMetadata();
  return 0;
}
