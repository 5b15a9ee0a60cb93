#include "libs/trace/importers/proto/android_aflags_decoder.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tw {
namespace {

// AndroidAflags (protos/perfetto/trace/android/android_aflags.proto).
constexpr uint32_t kFlags = 1;  // repeated Flag
constexpr uint32_t kError = 2;  // string

// AndroidAflags.Flag.
namespace flag {
constexpr uint32_t kFlagNamespace = 1, kName = 2, kPkg = 3, kContainer = 4, kValue = 5,
                   kStagedValue = 6, kPermission = 7, kValuePickedFrom = 8, kStorageBackend = 9,
                   kType = 10;
}  // namespace flag

// The enums' values (0 is *_UNSPECIFIED in each) → trace_processor's strings.
std::string_view EnumName(uint32_t value, std::initializer_list<std::string_view> names) {
  if (value == 0 || value > names.size()) return "unspecified";
  return *(names.begin() + (value - 1));
}

}  // namespace

void AndroidAflagsDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  TraceStorage& s = *ctx_->storage;
  std::vector<proto::Field> flags;
  std::optional<std::string_view> error;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == kFlags && f.type == proto::kLengthDelimited) flags.push_back(f);
    if (f.id == kError) error = f.as_string();
  }
  if (d.error()) s.IncrementStat("proto_decode_errors");
  if (error) {
    std::optional<uint32_t> args;
    if (add_arg_set_) {
      const StringId key = s.Intern("error");
      args = add_arg_set_({Arg{key, key, ArgValue::String(s.Intern(*error))}});
    }
    s.RecordImportLog("android_aflags_errors", packet.ts, args);
    return;
  }
  for (const proto::Field& fl : flags) {
    AndroidAflagsTable::Row row{};
    row.ts = packet.ts;
    // Absent strings are empty, except staged_value which stays NULL when nothing is staged.
    row.package = row.name = row.flag_namespace = row.container = row.value = s.Intern("");
    row.staged_value = kNullStringId;
    uint32_t permission = 0, picked_from = 0, backend = 0, type = 0;
    proto::Decoder fd(fl);
    proto::Field x;
    while (fd.Next(&x)) {
      switch (x.id) {
        case flag::kFlagNamespace: row.flag_namespace = s.Intern(x.as_string()); break;
        case flag::kName: row.name = s.Intern(x.as_string()); break;
        case flag::kPkg: row.package = s.Intern(x.as_string()); break;
        case flag::kContainer: row.container = s.Intern(x.as_string()); break;
        case flag::kValue: row.value = s.Intern(x.as_string()); break;
        case flag::kStagedValue: row.staged_value = s.Intern(x.as_string()); break;
        case flag::kPermission: permission = x.as_uint32(); break;
        case flag::kValuePickedFrom: picked_from = x.as_uint32(); break;
        case flag::kStorageBackend: backend = x.as_uint32(); break;
        case flag::kType: type = x.as_uint32(); break;
        default: break;
      }
    }
    if (fd.error()) s.IncrementStat("proto_decode_errors");
    row.permission = s.Intern(EnumName(permission, {"read-only", "read-write"}));
    row.value_picked_from = s.Intern(EnumName(picked_from, {"default", "server", "local"}));
    row.storage_backend = s.Intern(EnumName(backend, {"none", "aconfigd", "device_config"}));
    row.type = s.Intern(EnumName(type, {"boolean", "integer"}));
    s.android_aflags.Insert(row);
  }
}

}  // namespace tw
