#include "libs/trace/importers/proto/track_event_decoder.h"

namespace tw {

TrackEventDecoder::TrackEventDecoder(ImportContext* ctx) : ctx_(ctx) {}
TrackEventDecoder::~TrackEventDecoder() = default;

void TrackEventDecoder::OnTrackDescriptor(const PacketContext&, const proto::Field&) {
  ctx_->storage->IncrementStat("track_event_tokenizer_errors");
}
void TrackEventDecoder::OnTrackEvent(const PacketContext&, const proto::Field&) {
  ctx_->storage->IncrementStat("track_event_tokenizer_errors");
}
void TrackEventDecoder::OnThreadDescriptor(const PacketContext&, const proto::Field&) {}
void TrackEventDecoder::OnProcessDescriptor(const PacketContext&, const proto::Field&) {}

}  // namespace tw
