#include "libs/trace/importers/proto/translation_table_decoder.h"

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

constexpr uint32_t kMapKey = 1, kMapValue = 2;

// Reads the map entries of field `map_field` of `table` into `out`, keyed by `Key(field)`.
template <typename Map, typename KeyFn>
bool ReadMap(ImportContext* ctx, const proto::Field& table, uint32_t map_field, Map* out,
             KeyFn key_of) {
  proto::Decoder d(table);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != map_field || f.type != proto::kLengthDelimited) continue;
    std::optional<proto::Field> key;
    std::string_view value;
    proto::Decoder ed(f);
    proto::Field e;
    while (ed.Next(&e)) {
      if (e.id == kMapKey) key = e;
      if (e.id == kMapValue) value = e.as_string();
    }
    if (ed.error()) return false;
    // A map entry without a key has the key's default (0 / ""), as protobuf reads it.
    (*out)[key_of(key)] = ctx->Intern(value);
  }
  return !d.error();
}

}  // namespace

bool DecodeTranslationTable(ImportContext* ctx, const proto::Field& table,
                            TranslationTables* out) {
  namespace tt = pf::translation_table;
  auto hash_key = [](const std::optional<proto::Field>& k) -> uint64_t {
    return k ? k->as_uint64() : 0;
  };
  auto name_key = [ctx](const std::optional<proto::Field>& k) -> StringId {
    return ctx->Intern(k ? k->as_string() : std::string_view());
  };
  proto::Decoder d(table);
  proto::Field f;
  bool ok = true;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    switch (f.id) {
      case tt::kChromeHistogram:
        ok = ReadMap(ctx, f, 1, &out->chrome_histogram, hash_key) && ok;
        break;
      case tt::kChromeUserEvent:
        ok = ReadMap(ctx, f, 1, &out->chrome_user_event, hash_key) && ok;
        break;
      case tt::kChromePerformanceMark:
        ok = ReadMap(ctx, f, 1, &out->performance_mark_site, hash_key) && ok;
        ok = ReadMap(ctx, f, 2, &out->performance_mark_mark, hash_key) && ok;
        break;
      case tt::kSliceName:
        ok = ReadMap(ctx, f, 1, &out->slice_name, name_key) && ok;
        break;
      case tt::kProcessTrackName:
        ok = ReadMap(ctx, f, 1, &out->process_track_name, name_key) && ok;
        break;
      case tt::kChromeStudy:
        ok = ReadMap(ctx, f, 1, &out->chrome_study, hash_key) && ok;
        break;
      default: break;
    }
  }
  return ok && !d.error();
}

}  // namespace tw
