#include "libs/trace/trackers/art_process_metadata_tracker.h"

#include <limits>
#include <string_view>

#include "libs/trace/trackers/trace_context.h"

namespace tw {
namespace {

// "void com.Foo.bar(int)" → "com.Foo.bar": the method's qualified name without its return
// type and parameters.
std::string_view MethodName(std::string_view frame) {
  const size_t paren = frame.find('(');
  if (paren != std::string_view::npos) frame = frame.substr(0, paren);
  const size_t space = frame.rfind(' ');
  if (space != std::string_view::npos) frame = frame.substr(space + 1);
  return frame;
}

}  // namespace

void ArtProcessMetadataTracker::OnEvent(int64_t ts, const ArtProcessMetadataData& data) {
  TraceStorage* s = ctx_->storage;
  const uint32_t utid = ctx_->processes.UpdateThread(data.pid, data.pid);
  const uint32_t upid = ctx_->processes.GetOrCreateProcess(data.pid);
  if (data.process_name) {
    ctx_->processes.UpdateProcessName(upid, s->Intern(*data.process_name),
                                      ProcessNamePriority::kTrackDescriptor);
  }
  if (data.uid) ctx_->processes.SetProcessUid(upid, *data.uid);
  if (data.package_name && data.uid) {
    const StringId package = s->Intern(*data.package_name);
    PackageListTable& packages = s->package_list;
    bool known = false;
    for (uint32_t i = 0; i < packages.row_count() && !known; ++i) {
      known = packages.package_name[i] == package && packages.uid[i] == *data.uid;
    }
    if (!known) packages.Insert({.package_name = package, .uid = *data.uid});
  }

  const bool is_oome = data.oom_allocation_size.has_value();
  const uint32_t heap_graph = s->heap_graph.Insert(
      {.ts = ts, .upid = upid, .dump_reason = is_oome ? s->Intern("OOME") : kNullStringId});
  if (!is_oome) return;
  s->heap_graph_java_oome_details.Insert(
      {.heap_graph_id = heap_graph,
       .allocation_size_bytes = static_cast<int64_t>(*data.oom_allocation_size),
       .total_bytes_free = static_cast<int64_t>(data.oom_total_bytes_free),
       .free_bytes_until_oom = static_cast<int64_t>(data.oom_free_bytes_until_oom),
       .error_msg = data.oom_error_msg ? s->Intern(*data.oom_error_msg) : kNullStringId});
  if (data.oom_thread_java_stack) AddOomeCallstack(heap_graph, utid, *data.oom_thread_java_stack);
}

void ArtProcessMetadataTracker::AddOomeCallstack(
    uint32_t heap_graph_id, uint32_t utid,
    const std::vector<ArtProcessMetadataData::JavaFrame>& frames) {
  // The stack lists the innermost frame first; callsites grow from the outermost.
  std::optional<uint32_t> callsite;
  uint32_t depth = 0;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!it->method_name) continue;
    const uint32_t frame = Frame(MethodName(*it->method_name), it->source_file, it->line_number);
    callsite = Callsite(callsite, frame, depth++);
  }
  ctx_->storage->heap_graph_thread_callsite.Insert(
      {.heap_graph_id = heap_graph_id, .utid = utid, .callsite_id = callsite});
}

uint32_t ArtProcessMetadataTracker::Frame(std::string_view method,
                                          const std::optional<std::string>& source_file,
                                          std::optional<int32_t> line) {
  TraceStorage* s = ctx_->storage;
  if (!mapping_) {
    // Java frames have no addresses: one placeholder mapping spans the whole address space.
    const StringId empty = s->Intern("");
    mapping_ = s->stack_profile_mapping.Insert(
        {.build_id = empty,
         .end = static_cast<int64_t>(std::numeric_limits<uint64_t>::max()),
         .name = s->Intern("art_process_metadata")});
  }
  const StringId name = s->Intern(method);
  const StringId file = source_file ? s->Intern(*source_file) : kNullStringId;
  auto [it, inserted] = frames_.try_emplace({name, file, line ? *line : -1}, 0);
  if (!inserted) return it->second;
  // Its source location lives in a symbol set of its own.
  const uint32_t symbol_set = s->stack_profile_symbol.row_count();
  std::optional<uint32_t> line_number;
  if (line) line_number = static_cast<uint32_t>(*line);
  s->stack_profile_symbol.Insert(
      {.symbol_set_id = symbol_set, .name = name, .source_file = file, .line_number = line_number});
  it->second = s->stack_profile_frame.Insert(
      {.name = name, .mapping = *mapping_, .rel_pc = 0, .symbol_set_id = symbol_set});
  return it->second;
}

uint32_t ArtProcessMetadataTracker::Callsite(std::optional<uint32_t> parent, uint32_t frame,
                                             uint32_t depth) {
  const int64_t parent_key = parent ? static_cast<int64_t>(*parent) : -1;
  auto [it, inserted] = callsites_.try_emplace({parent_key, frame, depth}, 0);
  if (inserted) {
    it->second = ctx_->storage->stack_profile_callsite.Insert(
        {.depth = depth, .parent_id = parent, .frame_id = frame});
  }
  return it->second;
}

}  // namespace tw
