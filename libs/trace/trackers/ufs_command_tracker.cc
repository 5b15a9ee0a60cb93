#include "libs/trace/trackers/ufs_command_tracker.h"

#include <bit>
#include <cstdio>

#include "libs/trace/trackers/raw_event_args.h"

namespace tw {

std::string UfsCommandName(uint32_t opcode, uint32_t group_id) {
  // SCSI operation codes (SPC/SBC) a UFS device implements.
  const char* name = "UNDEFINED";
  switch (opcode) {
    case 0x00: name = "TEST UNIT READY"; break;
    case 0x03: name = "REQUEST SENSE"; break;
    case 0x04: name = "FORMAT UNIT"; break;
    case 0x08: name = "READ (6)"; break;
    case 0x0a: name = "WRITE (6)"; break;
    case 0x12: name = "INQUIRY"; break;
    case 0x1b: name = "START STOP UNIT"; break;
    case 0x1d: name = "SEND DIAGNOSTIC"; break;
    case 0x25: name = "READ CAPACITY (10)"; break;
    case 0x28: name = "READ (10)"; break;
    case 0x2a: name = "WRITE (10)"; break;
    case 0x2f: name = "VERIFY"; break;
    case 0x34: name = "PRE-FETCH (10)"; break;
    case 0x35: name = "SYNCHRONIZE CACHE (10)"; break;
    case 0x3b: name = "WRITE BUFFER"; break;
    case 0x3c: name = "READ BUFFER"; break;
    case 0x42: name = "UNMAP"; break;
    case 0x55: name = "MODE SELECT (10)"; break;
    case 0x5a: name = "MODE SENSE (10)"; break;
    case 0x88: name = "READ (16)"; break;
    case 0x8a: name = "WRITE (16)"; break;
    case 0x90: name = "PRE-FETCH (16)"; break;
    case 0x91: name = "SYNCHRONIZE CACHE (16)"; break;
    case 0x9e: name = "READ CAPACITY (16)"; break;
    case 0xa0: name = "REPORT LUNS"; break;
    case 0xa2: name = "SECURITY PROTOCOL IN"; break;
    case 0xb5: name = "SECURITY PROTOCOL OUT"; break;
    default: break;
  }
  std::string out = name;
  if (group_id > 0) {
    char gid[32];
    std::snprintf(gid, sizeof(gid), " (GID=0x%x)", group_id);
    out += gid;
  }
  return out;
}

UfsCommandTracker::UfsCommandTracker(TraceContext* ctx)
    : ctx_(ctx), storage_(ctx->storage), event_name_(storage_->Intern("ufshcd_command")) {}

void UfsCommandTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  if (raw.name != event_name_) return;
  auto field = [&](const char* key) {
    return static_cast<uint32_t>(RawIntArg(raw, storage_->Intern(key)).value_or(0));
  };
  const uint32_t doorbell = field("doorbell");
  // str_t: 0 the command was sent, otherwise it completed (or failed).
  const uint32_t phase = field("str_t");
  // Commands in flight: the doorbell's set bits; without a doorbell value, the one being sent.
  const uint32_t in_flight = doorbell > 0 ? static_cast<uint32_t>(std::popcount(doorbell))
                                          : (phase == 1 ? 0 : 1);
  TrackTracker& tracks = ctx_->tracks;
  const uint32_t count_track =
      tracks.InternTrack("ufs_command_count", "counter", storage_->Intern("io.ufs.command.count"),
                         {});
  storage_->counter.Insert(
      {.ts = ts, .track_id = count_track, .value = static_cast<double>(in_flight)});

  const uint32_t tag = field("tag");
  char track_name[32];
  std::snprintf(track_name, sizeof(track_name), "io.ufs.command.tag[%03u]", tag);
  const uint32_t tag_track = tracks.InternTrack("ufs_command_tag", "slice",
                                                storage_->Intern(track_name),
                                                {tracks.DimUint("ufs_tag", tag)});
  if (phase == 0) {
    ctx_->slices.Begin(ts, tag_track, kNullStringId,
                       storage_->Intern(UfsCommandName(field("opcode"), field("group_id"))), {});
  } else {
    ctx_->slices.End(ts, tag_track, kNullStringId, kNullStringId, {});
  }
  storage_->ExtendBounds(ts);
}

}  // namespace tw
