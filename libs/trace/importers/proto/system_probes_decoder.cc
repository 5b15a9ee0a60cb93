#include "libs/trace/importers/proto/system_probes_decoder.h"

namespace tw {

SystemProbesDecoder::SystemProbesDecoder(ImportContext* ctx) : ctx_(ctx) {}

bool SystemProbesDecoder::Decode(const PacketContext&, const proto::Field&) { return false; }

}  // namespace tw
