// libFuzzer target for the systrace importer, fed directly (no format detection, so every
// input reaches it): line splitting, the HTML / legacy JavaScript / compressed containers, the
// ftrace line and args parsers, and the events they produce run through the sorter and the
// trackers. Any input must import or fail with a status: never crash, hang or allocate
// without bound.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libs/trace/importers/systrace/systrace_importer.h"
#include "libs/trace/reader/chunk_source.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/event_router.h"
#include "libs/trace/trackers/trace_context.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tw::TraceStorage storage;
  tw::TraceContext context(&storage);
  context.processes.SetPidZeroIsUpidZeroIdleProcess();
  tw::EventRouter router(&context);
  tw::EventSorter sorter(0, [&](tw::Event& e) { router.Route(e); });
  tw::SystraceImporter importer(&storage, &sorter);
  tw::MemoryChunkSource source(std::string_view(reinterpret_cast<const char*>(data), size));
  (void)importer.Import(&source);
  sorter.Finish();
  router.Finish();
  return 0;
}
