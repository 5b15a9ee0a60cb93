#include "libs/trace/importers/proto/interned_source_location.h"

#include <string_view>

#include "libs/trace/importers/proto/interned_lookup.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw {
namespace {

// Reflected field path -> the prefix its location's args take.
struct LocationField {
  std::string_view field;
  std::string_view prefix;
};
constexpr LocationField kLocationFields[] = {
    {"begin_impl_frame_args.current_args.source_location_iid",
     "begin_impl_frame_args.current_args"},
    {"begin_impl_frame_args.last_args.source_location_iid", "begin_impl_frame_args.last_args"},
    {"begin_frame_observer_state.last_begin_frame_args.source_location_iid",
     "begin_frame_observer_state.last_begin_frame_args"},
    {"chrome_memory_pressure_notification.creation_location_iid",
     "chrome_memory_pressure_notification"},
};

}  // namespace

std::optional<SourceLocation> LookupSourceLocation(const SequenceState& seq, uint64_t iid) {
  const std::string* bytes = seq.Lookup(pf::interned_data::kSourceLocations, iid);
  if (!bytes) return std::nullopt;
  SourceLocation loc;
  proto::Decoder d(*bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == pf::source_location::kFileName) loc.file_name = std::string(f.as_string());
    if (f.id == pf::source_location::kFunctionName) loc.function_name = std::string(f.as_string());
    if (f.id == pf::source_location::kLineNumber) loc.line_number = f.as_uint32();
  }
  for (char& c : loc.file_name) {
    if (c == '\\') c = '/';
  }
  return loc;
}

bool ExpandInternedSourceLocationArg(const SequenceState& seq, TraceStorage* storage,
                                     const std::string& flat_key, uint64_t iid,
                                     std::vector<Arg>* out) {
  static constexpr std::string_view kIidSuffix = "_iid";
  if (flat_key.size() < kIidSuffix.size() ||
      flat_key.compare(flat_key.size() - kIidSuffix.size(), kIidSuffix.size(), kIidSuffix) != 0) {
    return false;
  }
  for (const LocationField& f : kLocationFields) {
    if (flat_key != f.field) continue;
    const std::optional<SourceLocation> loc = LookupSourceLocation(seq, iid);
    if (!loc) return false;
    const std::string prefix(f.prefix);
    auto add = [&](const std::string& key, ArgValue v) {
      const StringId k = storage->Intern(key);
      out->push_back(Arg{k, k, v});
    };
    add(prefix + ".file_name", ArgValue::String(storage->Intern(loc->file_name)));
    add(prefix + ".function_name", ArgValue::String(storage->Intern(loc->function_name)));
    if (loc->line_number) add(prefix + ".line_number", ArgValue::Int(*loc->line_number));
    return true;
  }
  return false;
}

}  // namespace tw
